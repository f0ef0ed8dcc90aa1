"""The computer at a table: seated at once, moving through the services, archived like anyone."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.live import computer_seat

from games.live.batch import send_now
from games.live.commands import Play
from games.live.opening import open_table
from games.live.tables import computer_turn, live_tables
from games.archive.models import ArchivedMatch, PlayerResult
from games.errors import GameError
from games.models import Move
from tests.live.helpers import api_socket, choose_move, state_where

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def table_against(level, scoring="hand", seed="computer"):
    seated = open_table("Ana", scoring=scoring, deal_seed=seed, computer=level)
    return seated.table.code, seated.token


# How long Ana waits for the computer's answer. Its thinking runs at a lower CPU priority, so
# on a machine busy with other test runs a decision (or the worker's start) can take seconds.
COMPUTER_ANSWERS_WITHIN = 60


def my_turn_or_showdown(state):
    return state["match_over"] or state["hand_result"] is not None or state["to_move"] == state["seat"]


async def play_against_the_computer(code, token):
    """Ana plays until the match is over; the computer answers on its own. Returns her last state."""
    socket = await api_socket(code, token)
    state = await state_where(socket, my_turn_or_showdown, COMPUTER_ANSWERS_WITHIN)
    while not state["match_over"]:
        if state["hand_result"] is not None:
            await socket.send_json_to({"type": "next_hand"})
            state = await state_where(socket, lambda s: s["hand_result"] is None and my_turn_or_showdown(s),
                                      COMPUTER_ANSWERS_WITHIN)
            continue
        await socket.send_json_to({"type": "move", "move": choose_move(state), "version": state["version"]})
        version = state["version"]
        state = await state_where(socket, lambda s, v=version: s["version"] > v and my_turn_or_showdown(s),
                                  COMPUTER_ANSWERS_WITHIN)
    await socket.disconnect()
    return state


def test_it_seats_the_computer_at_once_and_starts_the_match(db):
    seated = open_table("Ana", computer="club")
    seats = live_tables.owner(seated.table.code).seats
    assert seats[1].computer_level == "club" and seats[1].player.is_computer
    assert ArchivedMatch.objects.get().status == ArchivedMatch.PLAYING


def test_it_refuses_a_level_it_does_not_have(db):
    with pytest.raises(GameError) as refused:
        open_table("Ana", computer="grandmaster")
    assert refused.value.code == "bad_computer"


@pytest.mark.parametrize("level", ["beginner", "club", "expert"])
async def test_it_plays_a_whole_match_against_the_computer_through_the_consumers_and_archives_it(level, settings):
    settings.GAMES_WS_RATE_PER_SECOND = 1000  # the test's player answers faster than any person
    # Each level's own code at a tenth of its thinking time: how well it plays at full time is
    # benchmarks/computer.py's to measure; here, that it plays a whole match through the table.
    settings.GAMES_COMPUTER_BUDGET_MS = 10
    code, token = await table_against(level, scoring="game")
    final = await play_against_the_computer(code, token)
    assert final["match_over"] and final["sheet"]["is_over"]
    archived = await database_sync_to_async(ArchivedMatch.objects.get)()
    assert archived.status == ArchivedMatch.FINISHED and archived.hand_count == len(final["results"])
    # Ana's numbers count people only: this match is kept apart.
    results = await database_sync_to_async(lambda: list(PlayerResult.objects.values_list("against_computer", flat=True)))()
    assert sorted(results) == [False, True]


async def test_it_moves_when_the_table_is_opened_again_after_a_restart():
    code, token = await table_against("club", seed="restart")
    # Make the computer the one to move, then forget everything, as a restarted server would.
    socket = await api_socket(code, token)
    state = await state_where(socket, my_turn_or_showdown, COMPUTER_ANSWERS_WITHIN)
    await socket.disconnect()
    if state["to_move"] == state["seat"]:
        await database_sync_to_async(send_now)(code, Play(0, choose_move(state), state["version"]))
    moves_before = await database_sync_to_async(Move.objects.count)()
    live_tables.clear()
    socket = await api_socket(code, token)
    # Opening the table wakes the computer: its move arrives, and then it is Ana's turn.
    after = await state_where(socket, lambda s: s["version"] > state["version"] + 1 and my_turn_or_showdown(s),
                               COMPUTER_ANSWERS_WITHIN)
    assert after["to_move"] == 0 or after["hand_result"] is not None
    assert await database_sync_to_async(Move.objects.count)() > moves_before
    await socket.disconnect()


async def test_it_never_moves_twice_for_one_turn_however_many_think_at_once():
    code, token = await table_against("expert", seed="twice")
    socket = await api_socket(code, token)
    state = await state_where(socket, my_turn_or_showdown, COMPUTER_ANSWERS_WITHIN)
    await socket.disconnect()
    if state["to_move"] == 0:
        await database_sync_to_async(send_now)(code, Play(0, choose_move(state), state["version"]))
    turn = await database_sync_to_async(computer_turn)(code)
    assert turn is not None and isinstance(turn.command, Play)
    # Two thinkers (two processes) with the same turn: the version lets only one move in.
    outcomes = await asyncio.gather(computer_seat.take(code, turn), computer_seat.take(code, turn), return_exceptions=True)
    assert sum(isinstance(outcome, GameError) and outcome.code == "stale" for outcome in outcomes) == 1
    moves = await database_sync_to_async(lambda: list(Move.objects.filter(version=turn.version + 1)))()
    assert len(moves) == 1 and moves[0].seat == turn.seat
