"""The computer's seat, driven by the table's owner: it stops when the match ends, however it
ends, presses Rematch after its opponent, and is never a seat to claim from."""

import asyncio
import os
import random
import select
import subprocess
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from games import computer
from games.errors import GameError
from games.live import computer_seat
from games.live.batch import send_now
from games.live.commands import Claim, PressRematch, Resign
from games.live.opening import open_table
from games.live.tables import computer_turn, live_tables, refreshed

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def against_the_computer(settings, computer_moves_first):
    """A table against the club level, where it is the computer's turn (or Ana's)."""
    for seed in range(40):
        seated = open_table("Ana", scoring="hand", deal_seed=f"computer-{seed}", computer="club")
        owner = live_tables.owner(seated.table.code)
        if (owner.snapshot.to_move == 1) == computer_moves_first:
            return seated.table.code
    raise AssertionError("no deal with that seat to move first")


async def the_computer_stops(code):
    """The computer's loop at this table runs to its end (it would spin forever on a refusal).
    Generous: its worker thinks at a lower CPU priority, slow on a machine busy with other runs."""
    await asyncio.wait_for(computer_seat.play(code), timeout=60)


async def test_it_stops_the_computer_when_its_opponent_resigns_on_its_turn(settings):
    settings.GAMES_COMPUTER_PAUSE = 0
    code = await against_the_computer(settings, computer_moves_first=True)
    await database_sync_to_async(send_now)(code, Resign(0))
    assert await database_sync_to_async(computer_turn)(code) is None
    await the_computer_stops(code)


@pytest.mark.parametrize("computer_moves_first", [True, False])
async def test_it_lets_the_computer_accept_a_rematch_after_a_resignation(settings, computer_moves_first):
    settings.GAMES_COMPUTER_PAUSE = 0
    code = await against_the_computer(settings, computer_moves_first)
    await database_sync_to_async(send_now)(code, Resign(0))
    await database_sync_to_async(send_now)(code, PressRematch(0))
    await the_computer_stops(code)  # having pressed Rematch in its turn
    state = (await database_sync_to_async(refreshed)(code)).state_for(0)
    assert state["match_number"] == 2 and not state["match_over"]


async def test_it_asks_nothing_of_the_database_for_the_computer_while_its_opponent_is_to_move(settings, monkeypatch):
    code = await against_the_computer(settings, computer_moves_first=False)
    asked = []
    monkeypatch.setattr(computer_seat, "computer_turn", asked.append)
    computer_seat.wake(code)
    await the_computer_stops(code)
    assert asked == []


async def test_it_logs_a_refused_move_of_the_computer_once_and_stops(settings, monkeypatch, caplog):
    settings.GAMES_COMPUTER_PAUSE = 0
    settings.GAMES_COMPUTER_PROCESSES = 0  # a thread: the replaced player lives in this process only
    code = await against_the_computer(settings, computer_moves_first=True)
    monkeypatch.setattr(computer_seat, "choose_move_seeded", lambda view, level, seed, budget_ms=None: "discard ZZ")
    await the_computer_stops(code)
    refusals = [record for record in caplog.records if "refused" in record.getMessage()]
    assert len(refusals) == 1


def test_it_shows_the_computer_present_and_never_offers_a_claim_against_it(settings):
    settings.GAMES_CLAIM_AFTER_SECONDS = 0
    seated = open_table("Ana", scoring="hand", deal_seed="claim", computer="club")
    code = seated.table.code
    owner = live_tables.owner(code)
    state = owner.refresh().state_for(0)
    assert state["players"][1]["connected"] and state["players"][1]["computer"] == "club"
    assert not state["can_claim"] and state["claim_at"] is None
    with pytest.raises(GameError) as refused:
        send_now(code, Claim(0))
    assert refused.value.code == "opponent_not_away"
    assert owner.snapshot.state_for(0)["match_over"] is False


def test_it_thinks_in_a_worker_process_and_not_in_the_server_s(settings):
    settings.GAMES_COMPUTER_PROCESSES = 1
    assert computer_seat.pool().submit(os.getpid).result(timeout=60) != os.getpid()


async def test_it_chooses_in_a_worker_process_the_move_it_would_choose_here(settings):
    settings.GAMES_COMPUTER_PROCESSES = 1
    code = await against_the_computer(settings, computer_moves_first=True)
    turn = await database_sync_to_async(computer_turn)(code)
    here = computer.choose_move(turn.view, turn.level, random.Random("seed"))
    assert await computer_seat.think(turn.view, turn.level, "seed") == here


# A server as computer_seat starts its pool, reduced to that: it prints its worker's pid, then
# waits to be killed.
SERVER_WITH_A_POOL = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
from games.computer.worker import start_worker
if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker)
    print(pool.submit(os.getpid).result(timeout=60), flush=True)
    sys.stdin.read()
"""


def test_its_worker_process_ends_when_the_server_is_killed_outright(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(SERVER_WITH_A_POOL)
    root = Path(__file__).resolve().parents[2]
    server = subprocess.Popen([sys.executable, str(script)], cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    worker = os.pidfd_open(int(server.stdout.readline()))
    try:
        server.kill()  # SIGKILL: no chance to stop its pool
        server.wait(timeout=10)
        ended, _, _ = select.select([worker], [], [], 30)  # a pidfd is readable once its process ended
        assert ended, "the worker outlived its server"
    finally:
        os.close(worker)
        server.stdin.close()
        server.stdout.close()


async def test_it_thinks_in_a_new_worker_process_after_one_died(settings):
    settings.GAMES_COMPUTER_PROCESSES = 1
    code = await against_the_computer(settings, computer_moves_first=True)
    turn = await database_sync_to_async(computer_turn)(code)
    dying = computer_seat.pool()
    dying.submit(os._exit, 1)
    with pytest.raises(BrokenProcessPool):
        await computer_seat.think(turn.view, turn.level, "seed")
    assert await computer_seat.think(turn.view, turn.level, "seed") in turn.view["hand_view"]["legal_moves"]


async def test_it_still_makes_its_move_when_its_worker_is_killed_while_it_thinks(settings):
    settings.GAMES_COMPUTER_PROCESSES = 1
    code = await against_the_computer(settings, computer_moves_first=True)
    version = live_tables.owner(code).snapshot.version
    computer_seat.pool().submit(os._exit, 1)  # the worker dies under the computer's next thought
    await the_computer_stops(code)
    assert live_tables.owner(code).snapshot.version > version
