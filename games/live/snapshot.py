"""What one seat (or a spectator) may know about a table, as one JSON-ready dict.

Pure: built by the table's owner (games.live.owner) from what it holds, with no database
access. The JSON protocol sends a seat's dict as it is; the browser consumer renders the
same dict into HTML (games.live.render). It is built from the engine's views of the hand
(its public part once, each reader's own part: `public_view()`, `seat_view(seat)`) by
picking known keys, so nothing the engine adds later leaks by accident. A spectator (seat
None) gets no hand at all until the showdown, when the engine's result shows both.
"""

import orjson

from games.engine import NextDeal
from games.identity import token_matches
from games.live.pace import is_timed

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


class Facts:
    """What the owner decided about the table at one moment, for the snapshot to show: whose
    turn it is, how the match ended, who is present, from when each seat may claim, how many
    spectators watch, and which of this hand's moves the turn clock played."""

    def __init__(self, to_move, outcome, present, claim_at, now, expires, watching=0, clock_marks=()):
        self.to_move, self.outcome, self.present = to_move, outcome, present
        self.claim_at, self.now, self.expires = claim_at, now, expires
        self.watching, self.clock_marks = watching, list(clock_marks)


class Snapshot:
    """What every reader of a table may see at one moment: the state of seat 0, of seat 1 and
    of a spectator, built at once (the match may change right after: the states are plain
    data, copied out of it). Encoded JSON is kept per reader, so many sockets of one version
    cost one encoding. `serial` grows with every snapshot of a table in this process (a
    socket shows each once); `expires` is when a fact shown depends on the clock (a claim
    opens, a crashed server's seat counts as away), for the owner to look again then."""

    def __init__(self, table, seats, match, facts, earlier_wins=(0, 0), serial=0):
        self.version, self.serial, self.expires = table.version, serial, facts.expires
        self.to_move = facts.to_move
        self.has_computer = any(seat.computer_level for seat in seats.values())
        seated = len(seats) == 2
        # The hand's public part once for all readers; each reader's own part apart.
        shared = common_state(table, seats, match, match.hand.public_view(), facts, earlier_wins)
        self.states = {seat: seat_state(shared, match.hand.seat_view(seat), seated, facts) for seat in (0, 1, None)}
        self._json = {}
        self.views = {}  # the browser socket's views of it (games.live.render.LiveView), by reader

    def state_for(self, seat):
        return self.states[seat if seat in (0, 1) else None]

    def awaits_a_person(self):
        """Whether a person is to move in a hand being played: then the computer has nothing to
        do, whatever it would ask the owner (games.live.computer_seat)."""
        state = self.states[None]
        mover = state["to_move"]
        if state["match_over"] or state["hand_result"] is not None or mover is None:
            return False
        player = state["players"][mover]
        return player is not None and not player["computer"]

    def json_for(self, seat):
        seat = seat if seat in (0, 1) else None
        if seat not in self._json:
            self._json[seat] = encode(self.states[seat])
        return self._json[seat]


def encode(value):
    """JSON text for a frame, by orjson: several times faster than the standard library's on
    a state, and alike once parsed (integer keys become strings, as json.dumps makes them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def common_state(table, seats, match, public, facts, earlier_wins):
    """What every reader sees alike; `public` is the hand's public view."""
    outcome = facts.outcome
    state = {
        "type": "state",
        "code": table.code,
        "version": table.version,
        "match_number": table.match_number,
        "match_id": table.match_id or None,
        "rules": {"scoring": table.scoring, "target": table.target,
                  "straight": table.straight, "oklahoma": table.oklahoma,
                  "clock": table.clock, "pace": table.pace},
        "players": [player_state(seats.get(number), facts.present) for number in (0, 1)],
        "waiting_for_opponent": len(seats) < 2,
        "dealer": match.hand.dealer,
        "to_move": facts.to_move,
        "hand_number": len(match.hands),
        "hand_counts": public["counts"],
        **{key: public[key] for key in PUBLIC_VIEW_KEYS},
        "hand_result": public["result"],
        "results": [result_summary(result) for result in match.results],
        "sheet": match.sheet.to_dict(),
        "match_over": outcome is not None,
        "match_winner": outcome.winner if outcome else None,
        # "resigned" or "left" by seat `ended_by` when the match ended before its end.
        "ending": outcome.ending if outcome and outcome.early else None,
        "ended_by": outcome.ended_by if outcome else None,
        "clock": clock_state(table, match, facts),
        "spectators": facts.watching,
        # The hand's commitment while it is played; its seed and contributions once it is over.
        "deal": public["deal"],
        "next_deal": next_deal_state(table.next_deal),
    }
    state["table_wins"] = table_wins(earlier_wins, state)
    return state


def next_deal_state(saved):
    """The next hand's commitment and which seats have contributed to it, while it waits
    (docs/fairness.md); never its seed."""
    if saved is None:
        return None
    waiting = NextDeal.from_dict(saved)
    return {"commitment": waiting.commitment, "contributed": [share is not None for share in waiting.contributions]}


def clock_state(table, match, facts):
    """The turn clock, None at a table without one: its seconds a turn, what is left of each
    seat's bank, when the turn being played runs out (ISO 8601; None: no turn is timed) and
    whose it is (None at a showdown: whoever has not pressed "Next hand"), and the places
    in this hand's moves (`history`) of those the clock played."""
    if not is_timed(table):
        return None
    deadline = table.clock_deadline
    return {"seconds": table.clock, "pace": table.pace, "banks": list(table.clock_banks),
            "deadline": deadline.isoformat() if deadline is not None else None,
            "seat": facts.to_move if deadline is not None and match.hand.result is None else None,
            "played": facts.clock_marks}


def seat_state(shared, view, seated, facts):
    """The state one reader sees: what all see, the reader's own `view` of the hand, and from
    when it may claim the match (`claim_at`, ISO 8601; `can_claim` once that time has come)."""
    seat = view["seat"]
    claim_at = facts.claim_at.get(seat)
    return {
        **shared, "seat": seat,
        "can_claim": claim_at is not None and claim_at <= facts.now,
        "claim_at": claim_at.isoformat() if claim_at is not None else None,
        **own_hand_state(view, seated and shared["to_move"] == seat),
    }


def table_wins(earlier_wins, state):
    """Matches won by each seat at this table, this one included once it is over: the
    running score across rematches."""
    wins = list(earlier_wins)
    if state["match_over"] and state["match_winner"] is not None:
        wins[state["match_winner"]] += 1
    return wins


def result_summary(result):
    return {"winner": result.winner, "points": result.points, "kind": result.kind, "knocker": result.knocker}


def player_state(seat, present):
    if seat is None:
        return None
    return {"name": seat.name, "connected": present[seat.number], "ready": seat.ready,
            "computer": seat.computer_level or None}


def own_hand_state(view, may_move):
    """The seat's own cards, their melds, and what it may do now; nothing for a spectator.
    Nobody may move while the table waits for an opponent or once the match is over, whatever
    the engine's hand would allow (`may_move`)."""
    if view["seat"] is None:
        return {key: None for key in OWN_VIEW_KEYS} | {"opponent_count": None, "legal_moves": [], "knocks": []}
    knocks = [
        {"move": f"knock {card}", "card": card, "deadwood": deadwood} for card, deadwood in view["knocks"].items()
    ]
    return {
        **{key: view[key] for key in OWN_VIEW_KEYS},
        "opponent_count": view["opponent_count"],
        "legal_moves": view["legal_moves"] if may_move else [],
        "knocks": sorted(knocks, key=lambda knock: knock["deadwood"]) if may_move else [],
    }
