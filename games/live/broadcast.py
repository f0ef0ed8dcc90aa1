"""What a table's sockets hear after a change: only that it changed. Never a card.

A `Change` is what a service returns once its write has committed: a new game version (a
move, a deal, a seat taken), or `version=None` for a change of the seats alone (presence,
readiness), which never bumps the game's version and so never makes a move in flight stale.
games.live.hub tells it (`tell` from async code, `announce` from a view): the one way it is told.
"""

import uuid
from typing import NamedTuple

# Which process sent a seats change: the sender has already republished its own room.
PROCESS = uuid.uuid4().hex


class Change(NamedTuple):
    code: str
    version: int = None


def group_name(code):
    return f"table.{code}"


def event(change):
    """The message a change is told with: the table, who told it, and the new version (a
    seats change has none)."""
    if change.version is None:
        return {"type": "table.seats", "code": change.code, "origin": PROCESS}
    return {"type": "table.changed", "code": change.code, "origin": PROCESS, "version": change.version}


def revoked(code, seat):
    """The message that closes the sockets holding `seat`'s old secret (it was renewed)."""
    return {"type": "seat.revoked", "code": code, "origin": PROCESS, "seat": seat}


def chat(code, line, name):
    """A chat line for the table's sockets: who said it and what, nothing else (no version:
    chat is not a game change)."""
    return {"type": "table.chat", "code": code, "origin": PROCESS, "id": line.pk, "seat": line.seat, "name": name,
            "text": line.text}
