"""Every way into a live table, as a value: a person's frame, a page's request, the computer's
and the clock's moves, a socket arriving or leaving, the cleanup. The table's owner applies
each with `LiveTable.handle` (games.live.owner), which answers with a `Progress`; they come
in through one door, games.live.batch (`send` on the event loop, `send_now` from a view).
"""

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple


@dataclass(frozen=True)
class Play:
    """A move for `seat`, chosen at `version` (None: whatever is current)."""
    seat: int
    move: str
    version: int = None


@dataclass(frozen=True)
class ClockPlay:
    """The clock's move for `seat`, whose time ran out at `version`."""
    seat: int
    move: str
    version: int


@dataclass(frozen=True)
class ClockNextHand:
    """"Next hand" pressed for every seat a showdown still waits on: its time ran out."""
    version: int


@dataclass(frozen=True)
class PressNextHand:
    seat: int


@dataclass(frozen=True)
class PressRematch:
    seat: int


@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class Claim:
    """Claim the match from an opponent away too long."""
    seat: int


@dataclass(frozen=True)
class Say:
    """A chat line."""
    seat: int
    text: str


@dataclass(frozen=True)
class Sit:
    """Take seat 1 (a page's "Join"); `seat_token` already holding a seat keeps it."""
    name: str
    player_token: str = None
    seat_token: str = None


@dataclass(frozen=True)
class RenewSecret:
    """A new secret for the seat `token` holds; the old one's sockets are closed."""
    token: str


@dataclass(frozen=True)
class Arrive:
    """A socket of `seat` opened (None: a spectator's)."""
    seat: int = None


@dataclass(frozen=True)
class Leave:
    seat: int = None


@dataclass(frozen=True)
class EndIfStale:
    """End the table if nobody used it since `cutoff` (games.live.cleanup)."""
    cutoff: datetime
    now: datetime


class Progress(NamedTuple):
    """What a command did: the table's version after it, the events to publish once it has
    committed (none: nothing anyone sees changed), and its answer to the sender, if any."""

    code: str
    version: int
    events: tuple = ()
    answer: Any = None


class Turn(NamedTuple):
    """What the computer or the clock has to do at `version`: `command`, once `view` (its own
    view of the match, None when there is nothing to think of) has been thought of at
    `level` (`seed`: a seeded table plays alike every time, for tests)."""

    command: Any
    level: str
    version: int
    view: dict = None
    seed: str = None

    @property
    def seat(self):
        return getattr(self.command, "seat", None)

    def with_move(self, move):
        return replace(self.command, move=move)
