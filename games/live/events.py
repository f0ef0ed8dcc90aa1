"""What a table's sockets hear: the events of a change, built here and nowhere else. Never a card.

Every event names its table, the process it comes from (`origin`) and the table's version as
of the change (None only for an event about no version: the table gone, the database's
status). A socket that was shown an older version asks its owner for the table afresh.
Events are published by the one way in (games.live.batch) once their change has committed,
and delivered by the hub (games.live.hub): to this process's sockets in memory, to the other
processes through the channel layer.
"""

import uuid

# Which process published an event: the sender has already republished its own table.
PROCESS = uuid.uuid4().hex


def group_name(code):
    return f"table.{code}"


def event(kind, code, version, origin=PROCESS, **fields):
    return {"type": kind, "code": code, "origin": origin, "version": version, **fields}


def changed(code, version, origin=PROCESS):
    """The game moved on to `version` (a move, a deal, a seat taken, an ending)."""
    return event("table.changed", code, version, origin)


def seats(code, version, origin=PROCESS):
    """The seats changed (presence, readiness) at the same game version: never makes a move
    in flight stale."""
    return event("table.seats", code, version, origin)


def chat(code, version, line, name):
    """A chat line: who said it and what, nothing else; chat is not a game change."""
    return event("table.chat", code, version, id=line.pk, seat=line.seat, name=name, text=line.text)


def revoked(code, version, seat):
    """Closes the sockets holding `seat`'s old secret (it was renewed)."""
    return event("seat.revoked", code, version, seat=seat)


def gone(code):
    """The table was ended and deleted (games.live.cleanup)."""
    return event("table.gone", code, None)


def database_status(code, available):
    """The database went away, or came back (told by each process to its own sockets)."""
    return event("database.status", code, None, available=available)
