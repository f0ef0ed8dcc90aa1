"""Chat at the table: refused lines are refused on the event loop, at no cost to the database."""

import pytest

from games.live import store
from games.errors import GameError
from games.live.batch import send_now
from games.live.commands import Say
from games.models import ChatMessage
from tests.live.helpers import api_socket, open_seated_table, receive, seated_table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_refuses_a_seat_chatting_too_fast_without_asking_the_database(settings, monkeypatch):
    settings.GAMES_WS_RATE_PER_SECOND = 1000  # the socket's own frame limit is not what is tested
    settings.GAMES_WS_RATE_BURST = 1000
    asked = []
    counted = store.chat_lines_since
    monkeypatch.setattr(store, "chat_lines_since", lambda *args: asked.append(args) or counted(*args))
    code, tokens = await open_seated_table("hand")
    socket = await api_socket(code, tokens[0])
    for number in range(30):
        await socket.send_json_to({"type": "chat", "text": f"line {number}"})
    answers = []
    while len(answers) < 30:
        frame = await receive(socket)
        if frame["type"] in ("chat", "error"):
            answers.append(frame)
    said = [frame for frame in answers if frame["type"] == "chat"]
    refused = [frame["code"] for frame in answers if frame["type"] == "error"]
    assert len(said) == settings.GAMES_CHAT_BURST and refused == ["rate_limited"] * (30 - settings.GAMES_CHAT_BURST)
    # Only the lines taken asked the database how many the seat had said.
    assert len(asked) == settings.GAMES_CHAT_BURST
    await socket.disconnect()


async def test_it_refuses_an_empty_line_on_the_event_loop(monkeypatch):
    asked = []
    monkeypatch.setattr(store, "add_chat_line", lambda *args: asked.append(args))
    code, tokens = await open_seated_table("hand")
    socket = await api_socket(code, tokens[0])
    await socket.send_json_to({"type": "chat", "text": "   "})
    frame = await receive(socket)
    while frame["type"] != "error":
        frame = await receive(socket)
    assert frame["code"] == "chat_empty" and asked == []
    await socket.disconnect()


@pytest.mark.parametrize("text, code", [("\u200d", "chat_invisible"), ("\u3164\u2800", "chat_invisible"),
                                        ("\u200b\u2060\ufeff", "chat_invisible"), ("o" + "\u0308" * 30, "chat_too_many_marks")])
def test_it_refuses_a_chat_line_with_nothing_visible_or_a_pile_of_marks_and_stores_nothing(text, code):
    table, *_ = seated_table()
    with pytest.raises(GameError) as refused:
        send_now(table.code, Say(0, text))
    assert refused.value.code == code
    assert not ChatMessage.objects.exists()
