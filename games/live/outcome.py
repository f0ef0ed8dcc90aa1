"""How a match ended, as one value (python-chess's `board.outcome()`): None while it runs.

Every check of "is it over, who won, how did it end" reads this value; nothing compares the
engine's `match.is_over` with the table's `ending` by itself.
"""

from typing import NamedTuple

from games.archive.models import ArchivedMatch

PLAYED, RESIGNED, LEFT = ArchivedMatch.PLAYED, ArchivedMatch.RESIGNED, ArchivedMatch.LEFT
OUT_OF_TIME = ArchivedMatch.OUT_OF_TIME  # a seat's time ran out at a pace of days a turn
ABANDONED = ArchivedMatch.ABANDONED  # ended by the cleanup with nobody at the table: won by no one


class Outcome(NamedTuple):
    ending: str  # PLAYED, RESIGNED, LEFT (the other player claimed it), OUT_OF_TIME or ABANDONED
    winner: int = None  # the winning seat; None when nobody won
    ended_by: int = None  # who resigned or left; None for a match played out

    @property
    def early(self):
        """Ended before it was played out."""
        return self.ending != PLAYED


def outcome_of(table, match):
    """The end of the table's current match: how the engine scored it, or how the table
    recorded it ending early (`Table.ending` by `Table.ended_by`); None while it runs."""
    if table.ending:
        if table.ended_by is None:
            return Outcome(ABANDONED)
        return Outcome(table.ending, 1 - table.ended_by, table.ended_by)
    if match.is_over:
        return Outcome(PLAYED, match.winner)
    return None
