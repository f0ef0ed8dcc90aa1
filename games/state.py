"""What one seat (or a spectator) may know about a table, as one JSON-ready dict.

Pure: built from a table, its seats and its match, with no database access (games.rooms
reads and keeps them). The JSON protocol sends `seat_state`'s dict as it is; the browser
consumer renders the same dict into HTML (games.render). It is built from the engine's `view(seat)` by
picking known keys, so nothing the engine adds later leaks by accident. A spectator (seat
None) gets no hand at all until the showdown, when the engine's result shows both.
"""

import json
from datetime import timedelta

from django.utils import timezone

from games.identity import token_matches

# A seat counts as connected while it has a socket whose heartbeat is recent; the
# consumers beat every PRESENCE_HEARTBEAT seconds (games.consumers).
PRESENCE_HEARTBEAT = 30
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)

PUBLIC_VIEW_KEYS = ("phase", "knock_limit", "stock_count", "discard_count", "discard_top")
OWN_VIEW_KEYS = ("hand", "melds", "deadwood", "deadwood_points", "opponent_known", "cannot_discard",
                 "discard_deadwood")


def seat_holding(seats, token):
    """The number of the seat among `seats` whose secret is `token`, else None."""
    for seat in seats:
        if token_matches(seat.token_hash, token):
            return seat.number
    return None


class Snapshot:
    """What every reader of a table may see at one moment: the state of seat 0, of seat 1 and
    of a spectator, built at once from the table, its seats and its match (which may change
    right after: the states are plain data, copied out of it). Encoded JSON is kept per
    reader, so many sockets of one version cost one encoding."""

    def __init__(self, table, seats, match):
        self.version = table.version
        self.code = table.code
        seated = len(seats) == 2
        self.to_move = match.hand.to_move if seated else None
        public = match.hand.view(None)  # a spectator's view: no hand at all
        shared = common_state(table, seats, match, public)
        views = {0: match.hand.view(0), 1: match.hand.view(1), None: public}
        self.states = {seat: seat_state(shared, view, seated) for seat, view in views.items()}
        self._json = {}

    def state_for(self, seat):
        return self.states[seat if seat in (0, 1) else None]

    def json_for(self, seat):
        seat = seat if seat in (0, 1) else None
        if seat not in self._json:
            self._json[seat] = json.dumps(self.states[seat])
        return self._json[seat]


def common_state(table, seats, match, public):
    """What every reader sees alike; `public` is the hand as a spectator sees it."""
    hand = match.hand
    return {
        "type": "state",
        "code": table.code,
        "version": table.version,
        "match_number": table.match_number,
        "match_id": table.match_id or None,
        "rules": {"scoring": table.scoring, "target": table.target,
                  "straight": table.straight, "oklahoma": table.oklahoma},
        "players": [player_state(seats.get(number)) for number in (0, 1)],
        "dealer": hand.dealer,
        "to_move": hand.to_move if len(seats) == 2 else None,
        "hand_number": len(match.hands),
        "hand_counts": public["counts"],
        **{key: public[key] for key in PUBLIC_VIEW_KEYS},
        "hand_result": public["result"],
        "results": [result_summary(result) for result in match.results],
        "sheet": match.sheet.to_dict(),
        "match_over": match.is_over,
        "match_winner": match.winner,
    }


def seat_state(shared, view, seated):
    """The state one reader sees: what all see, and the reader's own `view` of the hand."""
    return {**shared, "seat": view["seat"], **own_hand_state(view, seated)}


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
