"""Who is at a table, and from when a seat may claim the match: the one place that decides.

Pure: read from Seat rows and the clock. A person is present while one of their sockets is
open and beating (games.live.consumers beats every PRESENCE_HEARTBEAT seconds); the computer
is always present, having no socket to lose.
"""

from datetime import timedelta

from django.conf import settings

PRESENCE_HEARTBEAT = 30
# Three beats missed: the socket's server is gone (a crash) and its count is not to be believed.
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)


def is_computer(seat):
    return bool(seat.computer_level)


def is_present(seat, now):
    if is_computer(seat):
        return True
    return seat.connections > 0 and seat.last_seen is not None and seat.last_seen > now - PRESENCE_TIMEOUT


def presence_lapses_at(seat, now):
    """When a present person counts as away if no beat comes first (a crashed server's
    sockets never say goodbye); None for the computer or someone already away."""
    if is_computer(seat) or not is_present(seat, now):
        return None
    return seat.last_seen + PRESENCE_TIMEOUT


def away_since(seat, now):
    """Since when the seat has been away: its last socket closed or its last heartbeat,
    whichever came last; None while present."""
    if is_present(seat, now):
        return None
    return seat.last_seen if seat.last_seen is not None else now - timedelta(days=365 * 100)


def claim_at(seats, waiting_on, seat, now):
    """The moment `seat` may claim the match from its opponent, or None: the table must wait
    on the opponent (`waiting_on`: the seats it waits for, empty once the match is over) and
    the opponent must be away; the claim opens GAMES_CLAIM_AFTER_SECONDS after they left."""
    other = seats.get(1 - seat)
    if other is None or (1 - seat) not in waiting_on:
        return None
    since = away_since(other, now)
    if since is None:
        return None
    return since + timedelta(seconds=settings.GAMES_CLAIM_AFTER_SECONDS)
