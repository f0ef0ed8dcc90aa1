"""The tables this browser holds a seat at, from its seat cookies (no account): whose turn it
is, how long is left, newest activity first, and how many wait for this browser.

Read from each table's snapshot, as its owner published it (games.live.owner): an owner
behind the database (another process moved) is refreshed first, found in one query.
"""

from typing import NamedTuple

from django.utils import timezone

from games.identity import hash_token
from games.live.tables import database_versions, live_tables
from games.live.render import time_left
from games.live.seats import COOKIE_PREFIX
from games.models import Seat

MOST_TABLES = 50  # cookies beyond these (the newest tables first) are not looked at


class YourTable(NamedTuple):
    code: str
    seat: int
    opponent: str  # "" while the table waits for an opponent
    waiting_on_you: bool
    their_turn: bool
    over: bool
    deadline: str  # ISO 8601 of the running turn's end, or None
    left: str  # the time left until it, as the table page counts it down
    active: object  # when the table last changed (a datetime)


def seat_cookies(cookies):
    """{table code: seat secret} of this browser's seat cookies."""
    return {name.removeprefix(COOKIE_PREFIX): token for name, token in cookies.items()
            if name.startswith(COOKIE_PREFIX) and token}


def your_seats(cookies):
    """The seats these cookies hold, newest activity first, with their tables."""
    held = seat_cookies(cookies)
    if not held:
        return []
    seats = Seat.objects.filter(table__code__in=list(held)[:MOST_TABLES * 2],
                                token_hash__in=[hash_token(token) for token in held.values()]).select_related("table")
    mine = [seat for seat in seats if seat.token_hash == hash_token(held[seat.table.code])]
    return sorted(mine, key=lambda seat: seat.table.updated, reverse=True)[:MOST_TABLES]


def your_tables(cookies):
    """What each table of this browser's seats shows it now (YourTable), newest first."""
    seats = your_seats(cookies)
    versions = database_versions([seat.table.code for seat in seats])
    return [table_for(seat, versions.get(seat.table.code)) for seat in seats]


def table_for(seat, version):
    owner = live_tables.owner(seat.table.code)
    snapshot = owner.snapshot if owner.snapshot.version == version else owner.refresh()
    state = snapshot.state_for(seat.number)
    opponent = state["players"][1 - seat.number]
    over = state["match_over"]
    clock = state["clock"] or {}
    return YourTable(
        code=seat.table.code, seat=seat.number, opponent=opponent["name"] if opponent else "",
        waiting_on_you=not over and is_waiting_on(state, seat.number),
        their_turn=not over and opponent is not None and is_waiting_on(state, 1 - seat.number),
        over=over, deadline=clock.get("deadline"), left=time_left(clock["deadline"]) if clock.get("deadline") else "",
        active=seat.table.updated or timezone.now())


def is_waiting_on(state, seat):
    """Whether the table waits for `seat`: its move, or its "Next hand" at a showdown."""
    if state["waiting_for_opponent"]:
        return False
    if state["hand_result"] is not None:
        return not state["players"][seat]["ready"]
    return state["to_move"] == seat


def waiting_count(cookies):
    """How many of this browser's tables wait for it (the header's badge)."""
    return sum(table.waiting_on_you for table in your_tables(cookies))


def context(request):
    """The header's "Your tables" link, for a browser holding a seat (its badge is fetched
    after the page: games.live.views.waiting_badge)."""
    return {"holds_seats": True} if seat_cookies(request.COOKIES) else {}
