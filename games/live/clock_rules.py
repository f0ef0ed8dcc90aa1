"""The turn clock's arithmetic: which turn it times, when that turn runs out, the banks.
Pure functions of a table's row, match and seats; the owner writes what they decide."""

from datetime import timedelta

from django.conf import settings


def clock_turn_key(table, match, seats, outcome):
    """The turn a table's clock is timing, or None: ("move", match, hand, seat) while a person
    is to move, ("showdown", match, hand, None) while a showdown waits for "Next hand"; the
    computer's turns are not timed."""
    if not table.clock or len(seats) < 2 or outcome is not None:
        return None
    if match.hand.result is not None:
        return ("showdown", table.match_number, len(match.hands), None)
    seat = match.hand.to_move
    if seats[seat].computer_level:
        return None
    return ("move", table.match_number, len(match.hands), seat)


def deadline_for(table, turn, banks, now):
    """When `turn` runs out: its seconds, and a move's seat's bank on top (None: no turn)."""
    if turn is None:
        return None
    extra = banks[turn[3]] if turn[0] == "move" else 0
    return now + timedelta(seconds=table.clock + extra)


def banks_after(before, deadline, banks, now):
    """The banks once turn `before` ended: its seat keeps what it did not use of its bank."""
    banks = list(banks) or fresh_banks()
    if before is not None and before[0] == "move" and deadline is not None:
        seat = before[3]
        banks[seat] = round(min(banks[seat], max(0.0, (deadline - now).total_seconds())), 1)
    return banks


def fresh_banks():
    return [float(settings.GAMES_CLOCK_BANK_SECONDS)] * 2
