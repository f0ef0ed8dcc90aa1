"""What one seat (or a spectator) may know about a table, as one JSON-ready dict.

The JSON protocol sends this dict as it is; the browser consumer renders the same dict
into HTML. It is built from the engine's `view(seat)` by picking known keys, so nothing
the engine adds later leaks by accident. A spectator (seat None) gets no hand at all
until the showdown, when the engine's result shows both.
"""

from datetime import timedelta

from django.utils import timezone

from games import matches

# A seat counts as connected while it has a socket whose heartbeat is recent; the
# consumers beat every PRESENCE_HEARTBEAT seconds (games.consumers).
PRESENCE_HEARTBEAT = 30
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)

PUBLIC_VIEW_KEYS = ("phase", "knock_limit", "stock_count", "discard_count", "discard_top")
OWN_VIEW_KEYS = ("hand", "melds", "deadwood", "deadwood_points", "opponent_known", "cannot_discard",
                 "discard_deadwood")


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
        "match_id": table.archive_id,
        "rules": {"scoring": table.scoring, "target": table.target,
                  "straight": table.straight, "oklahoma": table.oklahoma},
        "players": [player_state(seats.get(number)) for number in (0, 1)],
        "dealer": hand.dealer,
        "to_move": hand.to_move if seated else None,
        "hand_number": len(match.results) + (0 if hand.result is not None else 1),
        "hand_counts": view["counts"],
        **{key: view[key] for key in PUBLIC_VIEW_KEYS},
        "hand_result": hand.result,  # a plain dict (HandResult), the same for every reader
        "results": [matches.result_summary(result) for result in match.results],
        "sheet": matches.sheet_state(match),
        "match_over": match.is_over,
        "match_winner": match.winner,
    }
    state.update(own_hand_state(view, seated))
    return state


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
