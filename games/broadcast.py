"""What a table's group hears after a change: only that it changed. Never a card.

A `Change` is what a service returns once its write has committed: a new game version (a
move, a deal, a seat taken), or `version=None` for a change of the seats alone (presence,
readiness), which never bumps the game's version and so never makes a move in flight stale.
`after` (from async code) and `announce` (from a view) are the one way a change is told.
"""

import logging
import uuid
from typing import NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

# Which process sent a seats change: the sender has already republished its own room.
PROCESS = uuid.uuid4().hex


class Change(NamedTuple):
    code: str
    version: int = None


def group_name(code):
    return f"table.{code}"


def event(change):
    if change.version is None:
        return {"type": "table.seats", "origin": PROCESS}
    return {"type": "table.changed", "version": change.version}


async def after(layer, change):
    """Tell the table's group about `change`; False if the channel layer failed.

    Never raises: the change has committed, so a failed announcement (Redis down) must not
    turn into a refusal or an error page. The log gets the table and the version, which is
    all the message holds.
    """
    try:
        await layer.group_send(group_name(change.code), event(change))
    except Exception:
        logger.warning("could not announce %s of table %s", change.version or "seats", change.code, exc_info=True)
        return False
    return True


def announce(change):
    """From synchronous code (an HTTP view)."""
    return async_to_sync(after)(get_channel_layer(), change)
