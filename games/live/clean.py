"""What a client sends, checked before a table is touched: names, rules, clocks, seats, and the
engine's refusals named for the protocol. Each answers GameError with the reason."""

from django.conf import settings

from games import identity
from games.engine import TARGETS, scoring_mode
from games.errors import GameError

# Refusals of the engine that the protocol names by themselves; any other is an
# "illegal_move" carrying the engine's code as its reason.
ENGINE_REFUSALS = ("not_your_turn", "hand_over")


def require_seat(seat):
    if seat not in (0, 1):
        raise GameError("spectator")


def refusal(error):
    """The GameError for the engine's IllegalMove."""
    if error.code in ENGINE_REFUSALS:
        return GameError(error.code)
    return GameError("illegal_move", error.code)


def clean_name(raw):
    """1 to 24 printable characters after trimming (games.identity's rule), else GameError."""
    try:
        return identity.clean_name(raw)
    except ValueError as error:
        raise GameError(str(error)) from None


def clean_clock(clock):
    """0 (no clock) or one of settings.GAMES_CLOCKS, else GameError."""
    if clock is None:
        return 0
    if type(clock) is not int or (clock and clock not in settings.GAMES_CLOCKS):
        raise GameError("bad_clock")
    return clock


def clean_rules(scoring, target, straight, oklahoma):
    try:
        scoring_mode(scoring)
    except ValueError:
        raise GameError("bad_scoring") from None
    # type() and not isinstance(): True and 100.0 compare equal to 1 and 100, but the
    # engine's ScoreSheet takes only a real int.
    if type(target) is not int or target not in TARGETS:
        raise GameError("bad_target")
    if not isinstance(straight, bool) or not isinstance(oklahoma, bool):
        raise GameError("bad_option")
    return scoring, target, straight, oklahoma
