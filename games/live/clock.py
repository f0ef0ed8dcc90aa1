"""The turn clock: when a seat's time runs out, the computer plays its move at the club level.

The deadline is stored on the table's row (written by its owner with the change that started
the turn, games.live.owner), so it survives a reload and a restart, and any process serving
a socket of the table runs it out: the hub finds the snapshot expired at its periodic check
(games.live.hub) and tells `run_out`. The owner says what is due (`clock_turn`); the move is
chosen as the computer's seat chooses its own (games.live.computer_seat.think, away from the
event loop), and sent through the one way in (games.live.batch) to the owner, which looks at the stored deadline again under
its lock: of two processes whose clocks ran out at once, one plays and the other is refused
as stale. A showdown whose clock ran out has "Next hand" pressed for whoever had not.
"""

import asyncio
import logging

from games.errors import GameError
from games.live import batch, computer_seat, hub
from games.live.database import database_sync_to_async
from games.live.outage import DATABASE_AWAY
from games.live.tables import clock_turn

logger = logging.getLogger(__name__)
_running = {}  # table code → its task, one a table per process
STALE_TRIES = 3  # refusals as stale in a row before it waits for the hub's next check


def due(code):
    """The hub found table `code`'s snapshot expired: run its clock out if that is why."""
    task = _running.get(code)
    if task is not None and not task.done():
        return
    _running[code] = task = asyncio.ensure_future(run_out(code))
    task.add_done_callback(lambda done: _running.pop(code, None) if _running.get(code) is done else None)


hub.WHEN_DUE.append(due)


async def run_out(code):
    """Play what the clock has run out on at table `code`, until nothing more is due (a
    draw played for a seat leaves its discard, out of time too)."""
    stale = 0
    while True:
        try:
            turn = await database_sync_to_async(clock_turn)(code)
            if turn is None:
                return
            await batch.send(code, await computer_seat.command_for(turn))
        except GameError as refused:
            stale += 1
            if refused.code == "stale" and stale < STALE_TRIES:
                continue  # the table moved on meanwhile: look again
            logger.warning("the clock's move was refused at table %s: %s", code, refused.code)
            return
        except DATABASE_AWAY:
            logger.warning("the clock waits at table %s: the database is away", code)
            return  # the hub finds the table due again at its next check
        except Exception:
            logger.exception("the clock could not play at table %s", code)
            return
        stale = 0
