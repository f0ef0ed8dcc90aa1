"""Claiming a match from an opponent who left: when it opens, and that a player who stays on
the page is told so without doing anything."""

from datetime import datetime

import pytest
from django.utils import timezone

from games.live import hub
from tests.live.helpers import api_socket, open_seated_table, state_where

pytestmark = pytest.mark.django_db(transaction=True)


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def the_mover_is_left_alone(settings, wait):
    """Ana and Ben connected; the one to move closes their socket. Returns the other's
    socket, its seat and its first state after the leaving."""
    settings.GAMES_CLAIM_AFTER_SECONDS = wait
    code, tokens = await open_seated_table("hand")
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in sockets]
    mover = states[0]["to_move"]
    stayer = 1 - mover
    await sockets[mover].disconnect()
    left = await state_where(sockets[stayer], lambda state: not state["players"][mover]["connected"])
    return code, sockets[stayer], stayer, left


async def test_it_tells_the_moment_a_claim_opens(settings):
    code, socket, seat, state = await the_mover_is_left_alone(settings, wait=120)
    opens = datetime.fromisoformat(state["claim_at"])
    # Two minutes after the opponent left, which was a moment ago.
    assert not state["can_claim"] and 100 < (opens - timezone.now()).total_seconds() <= 120
    await socket.disconnect()


async def test_it_offers_the_claim_by_itself_once_the_wait_is_over(settings, monkeypatch):
    monkeypatch.setattr(hub, "CHECK_SECONDS", 0.2)
    code, socket, seat, state = await the_mover_is_left_alone(settings, wait=1)
    assert not state["can_claim"] and state["claim_at"]
    # Nothing else happens at the table: the state that offers the claim comes all the same.
    offered = await state_where(socket, lambda state: state["can_claim"])
    assert offered["version"] == state["version"]
    await socket.send_json_to({"type": "claim"})
    ended = await state_where(socket, lambda state: state["match_over"])
    assert (ended["ending"], ended["match_winner"]) == ("left", seat)
    await socket.disconnect()


async def test_it_refuses_a_claim_before_the_wait_is_over(settings):
    code, socket, seat, state = await the_mover_is_left_alone(settings, wait=120)
    await socket.send_json_to({"type": "claim"})
    frame = await socket.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await socket.receive_json_from(timeout=5)
    assert frame["code"] == "opponent_not_away"
    await socket.disconnect()
