"""Reading a table: what one seat (or a spectator) may know about it, as one JSON-ready dict.

The read path of live play: consumers and views call these, which only read; the services
write. The JSON protocol sends `seat_state`'s dict as it is; the browser consumer renders
the same dict into HTML (games.render). It is built from the engine's `view(seat)` by
picking known keys, so nothing the engine adds later leaks by accident. A spectator (seat
None) gets no hand at all until the showdown, when the engine's result shows both.
"""

from datetime import timedelta

from django.utils import timezone

from games import matches
from games.errors import GameError
from games.identity import is_public_id, token_matches
from games.models import Seat, Table

# A seat counts as connected while it has a socket whose heartbeat is recent; the
# consumers beat every PRESENCE_HEARTBEAT seconds (games.consumers).
PRESENCE_HEARTBEAT = 30
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)

PUBLIC_VIEW_KEYS = ("phase", "knock_limit", "stock_count", "discard_count", "discard_top")
OWN_VIEW_KEYS = ("hand", "melds", "deadwood", "deadwood_points", "opponent_known", "cannot_discard",
                 "discard_deadwood")


def get_table(code, lock=False):
    """The table by its code; `lock` (inside a transaction) holds its row until the end."""
    tables = Table.objects.select_for_update() if lock else Table.objects
    table = tables.filter(code=code).first() if is_public_id(code) else None
    if table is None:
        raise GameError("unknown_table")
    return table


def seats_of(table):
    return {seat.number: seat for seat in Seat.objects.filter(table=table)}


def load(code):
    """Everything needed to show a table: (table, seats by number, match)."""
    table = get_table(code)
    return table, seats_of(table), matches.for_reading(table)


def seat_holding(seats, token):
    """The number of the seat among `seats` whose secret is `token`, else None."""
    for seat in seats:
        if token_matches(seat.token_hash, token):
            return seat.number
    return None


def find_seat(code, token):
    """The seat number this token holds at the table, or None for a spectator."""
    return seat_holding(Seat.objects.filter(table=get_table(code)), token)


def current_version(code):
    return get_table(code).version


def load_state(code, seat):
    """The state `seat` (None: a spectator) may see now."""
    table, seats, match = load(code)
    return seat_state(table, seats, match, seat)


def seat_state(table, seats, match, seat):
    viewer = seat if seat in (0, 1) else None
    hand = match.hand
    seated = len(seats) == 2
    view = hand.view(viewer)  # a spectator's view: no hand at all
    state = {
        "type": "state",
        "code": table.code,
        "seat": viewer,
        "version": table.version,
        "match_number": table.match_number,
        "match_id": table.match_id or None,
        "rules": {"scoring": table.scoring, "target": table.target,
                  "straight": table.straight, "oklahoma": table.oklahoma},
        "players": [player_state(seats.get(number)) for number in (0, 1)],
        "dealer": hand.dealer,
        "to_move": hand.to_move if seated else None,
        "hand_number": len(match.hands),
        "hand_counts": view["counts"],
        **{key: view[key] for key in PUBLIC_VIEW_KEYS},
        "hand_result": view["result"],  # the same for every reader
        "results": [result_summary(result) for result in match.results],
        "sheet": match.sheet.to_dict(),
        "match_over": match.is_over,
        "match_winner": match.winner,
    }
    state.update(own_hand_state(view, seated))
    return state


def result_summary(result):
    return {"winner": result.winner, "points": result.points, "kind": result.kind, "knocker": result.knocker}


def player_state(seat):
    if seat is None:
        return None
    fresh = seat.last_seen is not None and seat.last_seen > timezone.now() - PRESENCE_TIMEOUT
    return {"name": seat.name, "connected": seat.connections > 0 and fresh, "ready": seat.ready}


def own_hand_state(view, seated):
    """The seat's own cards, their melds, and what it may do now; nothing for a spectator.

    Nobody may move before seat 1 is taken, whatever the engine's hand would allow.
    """
    if view["seat"] is None:
        return {key: None for key in OWN_VIEW_KEYS} | {"opponent_count": None, "legal_moves": [], "knocks": []}
    knocks = [
        {"move": f"knock {card}", "card": card, "deadwood": deadwood} for card, deadwood in view["knocks"].items()
    ]
    return {
        **{key: view[key] for key in OWN_VIEW_KEYS},
        "opponent_count": view["opponent_count"],
        "legal_moves": view["legal_moves"] if seated else [],
        "knocks": sorted(knocks, key=lambda knock: knock["deadwood"]) if seated else [],
    }
