"""Who is at a table, and from when a seat may claim the match: the one place that decides.

Pure: read from Seat rows and the clock. A person is present while one of their sockets is
open in a server process that is alive: each process counts its own sockets (a Presence row
per seat and process) and beats all its rows at once every GAMES_PRESENCE_BEAT_SECONDS
(games.live.hub). A process silent for GAMES_PRESENCE_TIMEOUT_SECONDS is gone (killed,
crashed): its sockets count no more, and another process's are untouched. Each Seat is read
with two summaries of its rows (games.live.store.seat_rows): `here`, its sockets in this
process, alive by definition, and `elsewhere_beat`, the latest beat of another process that
counts any. The computer is always present, having no socket to lose.
"""

from datetime import timedelta

from django.conf import settings


def is_computer(seat):
    return bool(seat.computer_level)


def timeout():
    return timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT_SECONDS)


def is_present(seat, now):
    if is_computer(seat) or seat.here:
        return True
    return seat.elsewhere_beat is not None and seat.elsewhere_beat > now - timeout()


def presence_lapses_at(seat, now):
    """When a person present only through another process counts as away unless it beats
    first (a crashed server's sockets never say goodbye); else None."""
    if not is_present(seat, now) or is_computer(seat) or seat.here:
        return None
    return seat.elsewhere_beat + timeout()


def away_since(seat, now):
    """Since when the seat has been away: its last socket closed, or the last beat of the
    server that held it; None while present."""
    if is_present(seat, now):
        return None
    moments = [moment for moment in (seat.last_seen, seat.elsewhere_beat) if moment is not None]
    return max(moments, default=now - timedelta(days=365 * 100))


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
