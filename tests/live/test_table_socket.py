"""The browser socket's own rules: a move must act on a state its player has seen for a
moment (a double tap plays one move), chat travels as itself and never changes the game."""

import pytest

from tests.live.helpers import browser_socket, error_frame, open_seated_table, receive, state_at, state_where
from tests.live.helpers import table_row

pytestmark = pytest.mark.django_db(transaction=True)


async def seated_browsers():
    code, tokens = await open_seated_table("hollywood")
    sockets = [await browser_socket(code, token) for token in tokens]
    states = [await state_where(socket, lambda frame: True) for socket in sockets]
    return code, sockets, states


async def close(*sockets):
    for socket in sockets:
        await socket.disconnect()


def mover_of(html_states):
    return next(seat for seat, frame in enumerate(html_states) if 'data-move="pass"' in frame["html"])


async def test_it_refuses_a_second_tap_on_a_state_the_player_has_not_seen_for_a_moment(settings):
    settings.GAMES_MIN_SEEN_SECONDS = 5
    code, sockets, states = await seated_browsers()
    mover = mover_of(states)
    version = states[mover]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version})
    after = await state_at(sockets[mover], version + 1)
    other = 1 - mover
    # The other player's page now shows "Take the upcard" under the finger; a tap at once is refused.
    seen = await state_at(sockets[other], version + 1)
    await sockets[other].send_json_to({"type": "move", "move": "pass", "version": seen["version"]})
    refusal = await error_frame(sockets[other])
    assert refusal["code"] == "too_soon" and (await table_row(code)).version == after["version"]
    await close(*sockets)


async def test_it_accepts_the_move_once_the_state_has_been_on_screen_long_enough(settings):
    settings.GAMES_MIN_SEEN_SECONDS = 0
    code, sockets, states = await seated_browsers()
    mover = mover_of(states)
    version = states[mover]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version})
    seen = await state_at(sockets[1 - mover], version + 1)
    await sockets[1 - mover].send_json_to({"type": "move", "move": "pass", "version": seen["version"]})
    assert (await state_at(sockets[mover], version + 2))["version"] == version + 2
    await close(*sockets)


async def test_it_carries_chat_to_both_players_and_a_spectator_without_a_new_version():
    code, sockets, _ = await seated_browsers()
    watcher = await browser_socket(code)
    await receive(watcher)
    before = (await table_row(code)).version
    await sockets[0].send_json_to({"type": "chat", "text": "Good luck, Ben!"})
    for socket in (*sockets, watcher):
        frame = await chat_frame(socket)
        assert (frame["seat"], frame["name"], frame["text"]) == (0, "Ana", "Good luck, Ben!")
    await watcher.send_json_to({"type": "chat", "text": "I am only watching"})
    assert (await error_frame(watcher))["code"] == "spectator"
    assert (await table_row(code)).version == before
    await close(watcher, *sockets)


async def chat_frame(socket):
    while True:
        frame = await receive(socket)
        if frame["type"] == "chat":
            return frame


async def test_it_ends_the_match_for_both_when_a_player_resigns():
    code, sockets, states = await seated_browsers()
    version = states[0]["version"]
    await sockets[1].send_json_to({"type": "resign"})
    for socket in sockets:
        frame = await state_at(socket, version + 1)
        assert "Ben resigned; the match goes to Ana." in frame["html"]
    assert (await table_row(code)).ending == "resigned"
    await close(*sockets)
