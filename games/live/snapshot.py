"""What one seat (or a spectator) may know about a table, as one JSON-ready dict.

Pure: built from a table, its seats and its match, with no database access (games.live.rooms
reads and keeps them). The JSON protocol sends `seat_state`'s dict as it is; the browser
consumer renders the same dict into HTML (games.live.render). It is built from the engine's `view(seat)` by
picking known keys, so nothing the engine adds later leaks by accident. A spectator (seat
None) gets no hand at all until the showdown, when the engine's result shows both.
"""

import json
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.identity import token_matches

# A seat counts as connected while it has a socket whose heartbeat is recent; the
# consumers beat every PRESENCE_HEARTBEAT seconds (games.live.consumers).
PRESENCE_HEARTBEAT = 30
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)

# Public: the face-up pile, the first upcard, the cards each seat took from the pile and
# still holds, and the hand's moves ("stock" never names the card drawn).
PUBLIC_VIEW_KEYS = ("phase", "knock_limit", "stock_count", "discard_count", "discard_top", "pile", "upcard",
                    "known", "history")
OWN_VIEW_KEYS = ("hand", "melds", "deadwood", "deadwood_points", "opponent_known", "cannot_discard",
                 "discard_deadwood", "drawn")


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

    def __init__(self, table, seats, match, earlier_wins=(0, 0)):
        """`earlier_wins`: the matches each seat won at this table before this one."""
        self.version = table.version
        self.code = table.code
        seated = len(seats) == 2
        self.to_move = match.hand.to_move if seated else None
        public = match.hand.view(None)  # a spectator's view: no hand at all
        shared = common_state(table, seats, match, public, earlier_wins)
        running = seated and not (match.is_over or table.ending)
        views = {0: match.hand.view(0), 1: match.hand.view(1), None: public}
        self.states = {
            seat: seat_state(shared, view, seated, seat is not None and running and claimable(table, seats, match, seat))
            for seat, view in views.items()
        }
        self._json = {}

    def state_for(self, seat):
        return self.states[seat if seat in (0, 1) else None]

    def json_for(self, seat):
        seat = seat if seat in (0, 1) else None
        if seat not in self._json:
            self._json[seat] = json.dumps(self.states[seat])
        return self._json[seat]


def common_state(table, seats, match, public, earlier_wins):
    """What every reader sees alike; `public` is the hand as a spectator sees it."""
    hand = match.hand
    state = {
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
        "match_over": match.is_over or bool(table.ending),
        "match_winner": 1 - table.ended_by if table.ending else match.winner,
        # "resigned" or "left" by seat `ended_by` when the match ended before its end.
        "ending": table.ending or None,
        "ended_by": table.ended_by if table.ending else None,
    }
    state["table_wins"] = table_wins(earlier_wins, state)
    return state


def seat_state(shared, view, seated, claim):
    """The state one reader sees: what all see, and the reader's own `view` of the hand;
    `claim` says whether this reader may claim the match (games.live.services.claim_abandoned)."""
    return {**shared, "seat": view["seat"], "can_claim": claim, **own_hand_state(view, seated)}


def table_wins(earlier_wins, state):
    """Matches won by each seat at this table, this one included once it is over: the
    running score across rematches."""
    wins = list(earlier_wins)
    if state["match_over"] and state["match_winner"] is not None:
        wins[state["match_winner"]] += 1
    return wins


def result_summary(result):
    return {"winner": result.winner, "points": result.points, "kind": result.kind, "knocker": result.knocker}


def player_state(seat):
    if seat is None:
        return None
    return {"name": seat.name, "connected": is_connected(seat), "ready": seat.ready,
            "computer": bool(seat.computer_level)}


def is_connected(seat):
    fresh = seat.last_seen is not None and seat.last_seen > timezone.now() - PRESENCE_TIMEOUT
    return seat.connections > 0 and fresh


def away_for(seat):
    """How long the seat has been away (zero while connected): since its last socket closed
    or its last heartbeat, whichever came last."""
    if is_connected(seat):
        return timedelta(0)
    return timezone.now() - seat.last_seen if seat.last_seen else timedelta.max


def claimable(table, seats, match, seat):
    """Whether `seat` may claim the match: the table waits on the other player (their turn,
    or their "Next hand" at a showdown) and they have been away GAMES_CLAIM_AFTER_SECONDS."""
    other = seats.get(1 - seat)
    hand = match.hand
    waiting_on = hand.to_move == 1 - seat or (hand.result is not None and not other.ready)
    gone = not is_connected(other)
    return waiting_on and gone and away_for(other) >= timedelta(seconds=settings.GAMES_CLAIM_AFTER_SECONDS)


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
