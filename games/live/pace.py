"""A table's pace: real time (with or without a turn clock), or days a turn.

At a pace of days a turn each seat has that many days for every move, and a bank of spare
time over the whole match (settings.GAMES_PACE_BANK_HOURS), as a turn clock has its bank of
seconds; a seat whose time runs out loses the match ("out of time"), where a turn clock
has the computer play the move instead. Both are timed by the same stored deadline
(games.live.clock), so a match played over a week survives restarts.
"""

from django.conf import settings

from games.errors import GameError

DAY_SECONDS = 24 * 3600


def clean_pace(pace):
    """0 (real time) or one of settings.GAMES_PACES, else GameError."""
    if pace is None:
        return 0
    if type(pace) is not int or (pace and pace not in settings.GAMES_PACES):
        raise GameError("bad_pace")
    return pace


def is_timed(table):
    """Whether the table's turns are timed: a turn clock, or a pace of days."""
    return bool(table.clock or table.pace)


def turn_seconds(table):
    """The time a turn has before the bank is drawn on."""
    return table.pace * DAY_SECONDS if table.pace else table.clock


def bank_seconds(table):
    """Each seat's spare time over a whole match."""
    return settings.GAMES_PACE_BANK_HOURS * 3600 if table.pace else settings.GAMES_CLOCK_BANK_SECONDS


def forfeits(table):
    """Whether a seat whose move runs out of time loses the match (days a turn), rather than
    having the computer play it (a turn clock)."""
    return bool(table.pace)
