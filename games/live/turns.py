"""Who else hears that a turn began or a match ended at a table: listeners registered at
start-up (the push notices, games.push), told once the change has committed, in the process
that made it, on the database's thread. A listener must be quick (it is on the move's path):
a notice is only queued there, and sent by the task worker.
"""

from typing import NamedTuple

TURN_BEGAN = []  # listeners, each called with a Turn
MATCH_ENDED = []  # listeners, each called with the table's code
SEAT_RENEWED = []  # listeners, each called with a Seat's id: its old secret no longer holds it
DEADLINE_SET = []  # listeners, each called with a table's code and its turn's new deadline (days a turn)


class Turn(NamedTuple):
    """The table now waits on seat `number` (a move, or its "Next hand"): `key` names this
    turn at the table (the match and the version that began it), the same in every process;
    `present`: a page of the seat was open as it began (games.live.presence)."""

    code: str
    seat_id: int
    number: int
    key: str
    present: bool


def listened():
    return bool(TURN_BEGAN or MATCH_ENDED)


def tell_deadline(code, deadline):
    for listener in DEADLINE_SET:
        listener(code, deadline)


def tell_renewed(seat_id):
    for listener in SEAT_RENEWED:
        listener(seat_id)


def tell(turns, ended_code=None):
    for turn in turns:
        for listener in TURN_BEGAN:
            listener(turn)
    if ended_code is not None:
        for listener in MATCH_ENDED:
            listener(ended_code)
