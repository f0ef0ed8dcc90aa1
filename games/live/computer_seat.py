"""The computer at a table: it sits in a seat like a person and sends its commands through the
one way in (games.live.batch) to the table's owner (games.live.owner), so it can make no move
a person could not, and each of its moves is in the database before anyone is told.

A process that serves a socket of a table with the computer wakes it after every change it
hears of (and when a socket connects: a table whose computer was to move when the server
stopped gets its move then). The owner says what the computer has to do (`computer_turn`):
move, or press "Next hand" or "Rematch" once its opponent has — nothing once the match is
over and nobody asks for another. After a short, natural pause the computer thinks, and plays
for the version it looked at: if two processes think at once, the version's compare-and-swap
lets one move in. A move the owner refuses ends the loop, logged once; it looks again at the
next change.

It thinks in a small pool of worker processes (GAMES_COMPUTER_PROCESSES, at a lower CPU
priority, each ending itself if this process is killed outright), never in this process: its
search is pure Python, and a thread of it would hold the interpreter's lock against the event
loop that serves the people's tables. At most GAMES_COMPUTER_PROCESSES decisions are handed to
the pool at once and the rest wait their turn in order, so a hundred computer tables opened at
once wait for the computer, not the people for their moves. With GAMES_COMPUTER_PROCESSES = 0
it thinks in a thread (tests that replace its player).
"""

import asyncio
import logging
import multiprocessing
import secrets
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from games.computer import choose_move_seeded
from games.computer.worker import start_worker
from games.errors import GameError
from games.live import batch, hub
from games.live.database import database_sync_to_async
from games.live.outage import DATABASE_AWAY
from games.live.tables import computer_turn, shown

logger = logging.getLogger(__name__)
_pools = {}  # (kind, workers) → the executor, made on first use and kept
_turns = {}  # the running loop → the semaphore that bounds the decisions handed to the pool
_awake = {}  # table code → its running task, one a table per process
# Refusals that mean only that the table moved on while the computer thought: look again.
MOVED_ON = ("stale", "not_your_turn")


def wake(code):
    """Let the computer of table `code`, if it has one, do what is its to do now."""
    snapshot = shown(code)
    if snapshot is None or not snapshot.has_computer or snapshot.awaits_a_person():
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
    worker_died = False
    while True:
        task.again = False
        if awaits_a_person(code):
            return  # its own move shown, say: no trip to the database to learn it has nothing to do
        try:
            turn = await database_sync_to_async(computer_turn)(code)
            if turn is not None:
                await take(code, turn)
                continue
        except BrokenProcessPool:
            # Its worker was killed mid-thought: think again in a new one, once. Waiting for
            # the next change would wait for ever, as its opponent waits for its move.
            logger.warning("the computer's worker died at table %s%s", code, "" if worker_died else "; thinking again")
            if worker_died:
                return
            worker_died = True
            continue
        except GameError as refused:
            if refused.code in MOVED_ON:
                continue
            logger.warning("the computer's %s was refused at table %s: %s", type(turn.command).__name__, code,
                           refused.code)
            return
        except DATABASE_AWAY:
            logger.warning("the computer waits at table %s: the database is away", code)
            return  # woken again when the database is back (the hub tells every table)
        except Exception:
            logger.exception("the computer could not play at table %s", code)
            return
        if not task.again:
            return


def awaits_a_person(code):
    snapshot = shown(code)
    return snapshot is not None and snapshot.awaits_a_person()


async def take(code, turn):
    await asyncio.sleep(settings.GAMES_COMPUTER_PAUSE)  # a person's pause, so its moves can be followed
    await batch.send(code, await command_for(turn))


async def command_for(turn):
    """The command `turn` asks for, its move thought of first when it needs one (the clock's
    too: it chooses as the computer does)."""
    if turn.view is None:
        return turn.command
    seed = turn.seed if turn.seed is not None else secrets.randbits(64)
    return turn.with_move(await think(turn.view, turn.level, seed))


def pool():
    workers = settings.GAMES_COMPUTER_PROCESSES
    key = ("processes", workers) if workers > 0 else ("threads", 1)
    if key not in _pools:
        if workers > 0:
            # Spawned, not forked: the server has threads (the database's) a fork would copy mid-step.
            _pools[key] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=start_worker)
        else:
            _pools[key] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
    return _pools[key]


async def think(view, level, seed):
    """The computer's move for `view`, chosen away from the event loop with a generator seeded
    by `seed`, one decision a worker at a time: the others wait here, in order, costing nothing."""
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        _turns.clear()  # a previous loop's (tests run several)
        turns = _turns[loop] = asyncio.Semaphore(max(1, settings.GAMES_COMPUTER_PROCESSES))
    async with turns:
        executor = pool()
        try:
            return await loop.run_in_executor(executor, choose_move_seeded, view, level, seed,
                                              settings.GAMES_COMPUTER_BUDGET_MS)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next decision gets a new pool.
            for key, kept in list(_pools.items()):
                if kept is executor:
                    del _pools[key]
            raise
