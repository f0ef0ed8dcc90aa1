"""One way for a change: the mover's socket hears of its own move once, as every other
socket does; and a match that ended leaves nobody a move to make."""

import pytest
from channels.db import database_sync_to_async

from games.live import render
from games.live.batch import send_now
from games.live.commands import Play, Resign
from games.live.tables import refreshed
from tests.live.helpers import api_socket, browser_socket, choose_move, open_seated_table, receive, state_where

pytestmark = pytest.mark.django_db(transaction=True)


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def test_it_shows_the_mover_its_own_move_once():
    code, tokens = await open_seated_table("hand")
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in sockets]
    mover = states[0]["to_move"]
    version = states[mover]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": choose_move(states[mover]), "version": version})
    after = await state_where(sockets[1 - mover], lambda state: state["version"] == version + 1)
    await sockets[1 - mover].send_json_to({"type": "move", "move": choose_move(after), "version": version + 1})
    seen = []
    while not seen or seen[-1] < version + 2:
        frame = await receive(sockets[mover])
        assert frame["type"] == "state", frame
        if frame["version"] > version:  # a presence frame from before the move may come late
            seen.append(frame["version"])
    assert seen == [version + 1, version + 2]
    for socket in sockets:
        await socket.disconnect()


async def test_it_leaves_no_move_to_make_once_the_opponent_resigned():
    code, tokens = await open_seated_table("hand")
    socket = await browser_socket(code, tokens[0])
    first = await receive(socket)
    state = (await database_sync_to_async(refreshed)(code)).state_for(0)
    if state["to_move"] != 0:  # make it Ana's turn first
        other = (await database_sync_to_async(refreshed)(code)).state_for(1)
        await database_sync_to_async(send_now)(code, Play(1, choose_move(other), other["version"]))
    await database_sync_to_async(send_now)(code, Resign(1))
    state = (await database_sync_to_async(refreshed)(code)).state_for(0)
    assert (state["to_move"], state["legal_moves"], state["knocks"]) == (None, [], [])
    html = render.render_live(state)
    assert "data-move=" not in html and "Tap a card to discard it" not in html and "felt my-turn" not in html
    assert first["type"] == "state"
    await socket.disconnect()
