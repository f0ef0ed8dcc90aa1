"""Refused frames: an old version, an illegal move, a move out of turn, a spectator's, malformed JSON; racing moves; nothing changes and the socket stays."""

import asyncio

import pytest
from tests.live.helpers import (
    api_socket, browser_socket, choose_move, close, error_frame, move_count, open_seated_table, receive,
    seated_sockets, state_at, state_where, table_row,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def first_refusal(*sockets):
    """The code of the first error frame any of these sockets gets."""
    waits = [asyncio.ensure_future(error_frame(socket)) for socket in sockets]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    assert len(done) == 1
    return done.pop().result()["code"]


async def test_it_refuses_a_move_against_an_old_version_and_sends_the_fresh_state():
    code, _, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": states[0]["version"] - 1})
    error = await error_frame(sockets[mover])
    fresh = await receive(sockets[mover])
    assert error["code"] == "stale" and error["message"]
    assert fresh["type"] == "state" and fresh["version"] == states[0]["version"]
    assert await move_count(code) == 0
    await close(*sockets)


async def test_it_refuses_an_illegal_move_and_changes_nothing():
    code, _, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    await sockets[mover].send_json_to({"type": "move", "move": "discard 2C"})
    error = await error_frame(sockets[mover])
    assert error["code"] == "illegal_move" and error["reason"] == "must_draw_first"
    assert (await table_row(code)).version == states[0]["version"]
    await close(*sockets)


async def test_it_refuses_a_move_out_of_turn():
    code, _, sockets, states = await seated_sockets()
    waiting = 1 - states[0]["to_move"]
    await sockets[waiting].send_json_to({"type": "move", "move": "pass"})
    assert (await error_frame(sockets[waiting]))["code"] == "not_your_turn"
    assert await move_count(code) == 0
    await close(*sockets)


async def test_it_refuses_a_spectators_move():
    code, _, sockets, states = await seated_sockets()
    watcher = await api_socket(code)
    await receive(watcher)
    await watcher.send_json_to({"type": "move", "move": "pass"})
    assert (await error_frame(watcher))["code"] == "spectator"
    assert await move_count(code) == 0
    await close(watcher, *sockets)


@pytest.mark.parametrize("frame, code", [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "move"}', "malformed"),
    ('{"type": "move", "move": "pass", "version": "12"}', "malformed"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "move", "move": "' + "x" * 5000 + '"}', "too_large"),
])
async def test_it_answers_a_malformed_frame_with_an_error_and_keeps_the_socket(frame, code):
    table, _, sockets, states = await seated_sockets()
    await sockets[0].send_to(text_data=frame)
    assert (await error_frame(sockets[0]))["code"] == code
    await sockets[0].send_json_to({"type": "next_hand"})
    assert (await error_frame(sockets[0]))["code"] == "no_next_hand"
    assert await move_count(table) == 0
    await close(*sockets)


@pytest.mark.parametrize("frame, code", [
    ('{"type": ["move"]}', "unknown_type"),
    ('{"type": {"move": 1}}', "unknown_type"),
    ('{"type": 7}', "unknown_type"),
    ('{"type": "move", "move": ["pass"]}', "malformed"),
    ('{"type": "move", "move": "pass", "version": [1]}', "malformed"),
    ("[" * 1024 + "]" * 1024, "malformed"),  # deeper than the JSON parser goes
    ('{"type": "move", "move": ' + "[" * 1000 + "]" * 1000 + "}", "malformed"),
])
async def test_it_answers_a_frame_of_odd_json_types_with_an_error_and_logs_no_traceback(frame, code, caplog):
    _, _, sockets, _ = await seated_sockets()
    await sockets[0].send_to(text_data=frame)
    assert (await error_frame(sockets[0]))["code"] == code
    await sockets[0].send_json_to({"type": "next_hand"})
    assert (await error_frame(sockets[0]))["code"] == "no_next_hand"
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    await close(*sockets)


async def test_it_answers_an_odd_sort_frame_on_the_page_socket_with_the_default_sort(caplog):
    code, tokens = await open_seated_table()
    socket = await browser_socket(code, tokens[0])
    await receive(socket)
    await socket.send_to(text_data='{"type": ["sort"]}')
    assert (await error_frame(socket))["code"] == "unknown_type"
    await socket.send_to(text_data='{"type": "sort", "by": {"rank": 1}}')
    assert (await state_where(socket, lambda state: True))["type"] == "state"
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    await socket.disconnect()


async def test_it_answers_a_binary_frame_with_an_error():
    _, _, sockets, _ = await seated_sockets()
    await sockets[0].send_to(bytes_data=b"\x00\x01")
    assert (await error_frame(sockets[0]))["code"] == "malformed"
    await close(*sockets)


async def test_it_applies_only_one_of_two_racing_moves():
    code, tokens, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    second_tab = await api_socket(code, tokens[mover])
    await state_where(second_tab, lambda state: True)
    version = states[0]["version"]
    await asyncio.gather(
        sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version}),
        second_tab.send_json_to({"type": "move", "move": "pile", "version": version}),
    )
    await state_at(sockets[1 - mover], version + 1)
    # The loser (whichever it was) is told its move came too late.
    assert await first_refusal(sockets[mover], second_tab) == "stale"
    assert await move_count(code) == 1
    assert (await table_row(code)).version == version + 1
    await close(second_tab, *sockets)


async def test_it_applies_the_same_move_sent_on_two_sockets_of_one_seat_once():
    code, tokens, sockets, states = await seated_sockets()
    mover, version = states[0]["to_move"], states[0]["version"]
    second_tab = await api_socket(code, tokens[mover])
    await state_where(second_tab, lambda state: True)
    frame = {"type": "move", "move": choose_move(states[mover]), "version": version}
    await asyncio.gather(sockets[mover].send_json_to(frame), second_tab.send_json_to(frame))
    await state_at(sockets[1 - mover], version + 1)
    # One of the two is told it came too late; the move is logged once.
    assert await first_refusal(sockets[mover], second_tab) == "stale"
    assert await move_count(code) == 1
    await close(second_tab, *sockets)


async def test_it_keeps_a_move_whose_player_disconnected_before_the_answer():
    code, tokens, sockets, states = await seated_sockets()
    mover, version = states[0]["to_move"], states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": choose_move(states[mover]), "version": version})
    await sockets[mover].disconnect()
    seen_by_opponent = await state_at(sockets[1 - mover], version + 1)
    back = await api_socket(code, tokens[mover])
    resumed = await state_at(back, version + 1)
    assert resumed["version"] == seen_by_opponent["version"] and await move_count(code) == 1
    await close(back, sockets[1 - mover])
