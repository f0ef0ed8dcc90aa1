"""The computer at a table: it sits in a seat like a person and moves through the same
services, so it can make no move a person could not, and each of its moves is in the database
before anyone is told.

A process that serves a socket of a table with the computer wakes it after every change it
hears of (and when a socket connects: a table whose computer was to move when the server
stopped gets its move then). After a short, natural pause the computer thinks in a thread of
its own — off the event loop and off the database thread — and plays for the version it
looked at: if two processes think at once, the version's compare-and-swap lets one move in.
It presses "Next hand" and "Rematch" once its opponent has.
"""

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

from django.conf import settings

from games.live.database import database_sync_to_async
from games.live import hub, rooms, services
from games.computer import choose_move
from games.errors import GameError

logger = logging.getLogger(__name__)
thinking = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer")
_awake = {}  # table code → its running task, one a table per process


class Turn(NamedTuple):
    seat: int
    level: str
    version: int
    kind: str  # "move", "next_hand" or "rematch"
    view: dict = None  # the computer's own view of the match, for a move
    seed: str = None  # a seeded table's computer plays alike every time (tests)


def computer_seat(seats):
    return next((number for number, seat in seats.items() if seat.computer_level), None)


def wake(code):
    """Let the computer of table `code`, if it has one, do what is its to do now."""
    room = rooms.rooms.get(code)
    if room is None or computer_seat(room.seats) is None:
        return
    task = _awake.get(code)
    if task is not None and not task.done():
        task.again = True
        return
    task = asyncio.ensure_future(play(code))
    task.again = False
    _awake[code] = task
    task.add_done_callback(lambda done: _awake.pop(code, None) if _awake.get(code) is done else None)


hub.AFTER_A_CHANGE.append(wake)


async def play(code):
    task = asyncio.current_task()
    while True:
        task.again = False
        try:
            turn = await database_sync_to_async(turn_at)(code)
            if turn is not None:
                await take(code, turn)
                continue
        except GameError:
            continue  # the table moved on while it thought: look again
        except Exception:
            logger.exception("the computer could not play at table %s", code)
            return
        if not task.again:
            return


def turn_at(code):
    """What the computer must do at table `code` now, or None (in the database thread)."""
    room = rooms.rooms.room(code)
    with room.lock:
        seat = computer_seat(room.seats)
        if seat is None or len(room.seats) < 2:
            return None
        me, other, match = room.seats[seat], room.seats[1 - seat], room.match
        version, level = room.table.version, me.computer_level
        seed = f"{room.table.deal_seed}:{version}" if room.table.deal_seed is not None else None
        if match.is_over or match.hand.result is not None:
            if other.ready and not me.ready:
                return Turn(seat, level, version, "rematch" if match.is_over else "next_hand")
            return None
        if match.hand.to_move == seat:
            return Turn(seat, level, version, "move", match.view(seat), seed)
        return None


async def take(code, turn):
    await asyncio.sleep(settings.GAMES_COMPUTER_PAUSE)  # a person's pause, so its moves can be followed
    if turn.kind == "move":
        rng = random.Random(turn.seed) if turn.seed is not None else random.Random()
        move = await asyncio.get_running_loop().run_in_executor(thinking, choose_move, turn.view, turn.level, rng)
        change = await database_sync_to_async(services.play_move)(code, turn.seat, move, turn.version)
    elif turn.kind == "next_hand":
        change = await database_sync_to_async(services.ready_for_next_hand)(code, turn.seat)
    else:
        change = await database_sync_to_async(services.rematch)(code, turn.seat)
    if change is not None:
        await hub.tell(change)
