"""What each socket is sent: never a card its reader may not see, in its page's language."""

import json
import re

import pytest
from tests.live.helpers import (
    api_socket, browser_socket, close, open_seated_table, play, receive, seated_sockets, state_at,
)

pytestmark = pytest.mark.django_db(transaction=True)


def card_codes(state):
    return set(re.findall(r'"([A2-9TJQK][CDHS])"', json.dumps(state)))


def public_cards(state):
    """What anyone at the table has seen face up: the pile, the first upcard, the cards
    taken from the pile, the discards named in the history."""
    discarded = {move.split()[1] for _seat, move in state["history"] if " " in move}
    return {*state["pile"], state["upcard"], *state["known"][0], *state["known"][1], *discarded}


async def test_it_never_sends_a_spectator_a_hand_before_the_showdown():
    code, _, sockets, states = await seated_sockets("hand")
    watcher = await api_socket(code)
    seen = [await receive(watcher)]
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
        seen.append(await state_at(watcher, states[0]["version"]))
    for state in seen[:-1]:
        assert state["seat"] is None and state["hand"] is None and state["melds"] is None
        assert card_codes(state) <= public_cards(state)
    assert seen[-1]["hand_result"]["players"][0]["melds"] is not None
    await close(watcher, *sockets)


async def test_it_never_sends_a_player_the_opponents_hidden_cards():
    _, _, sockets, states = await seated_sockets("hand")
    while states[0]["hand_result"] is None:
        for seat in (0, 1):
            mine, theirs = states[seat], states[1 - seat]
            public = {mine["discard_top"], *mine["opponent_known"]}
            assert not card_codes(mine) & (set(theirs["hand"]) - public)
        states = await play(sockets, states)
    await close(*sockets)


async def test_it_never_renders_a_hand_into_a_spectators_page():
    code, _, sockets, states = await seated_sockets("hollywood")
    watcher = await browser_socket(code)
    frame = await receive(watcher)
    states = await play(sockets, states)
    later = await state_at(watcher, states[0]["version"])
    for html in (frame["html"], later["html"]):
        assert "my-hand" not in html and "data-move" not in html
    await close(watcher, *sockets)


async def test_it_renders_the_browser_view_in_the_pages_language():
    code, tokens = await open_seated_table()
    socket = await browser_socket(code, tokens[0], lang="de")
    frame = await receive(socket)
    assert frame["type"] == "state" and 'data-seat="0"' in frame["html"]
    assert 'id="status-line" lang="de"' in frame["html"]
    await socket.disconnect()
