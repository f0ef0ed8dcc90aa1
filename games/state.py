"""Reading a table: what one seat (or a spectator) may know about it, as one JSON-ready dict.

The read path of live play: consumers and views call these, which only read; the services
write. The JSON protocol sends `seat_state`'s dict as it is; the browser consumer renders
the same dict into HTML (games.render). It is built from the engine's `view(seat)` by
picking known keys, so nothing the engine adds later leaks by accident. A spectator (seat
None) gets no hand at all until the showdown, when the engine's result shows both.
"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import matches
from games.archive.stats import wins_before
from games.errors import GameError
from games.identity import token_matches
from games.models import ChatMessage, Seat, Table

# A seat counts as connected while it has a socket whose heartbeat is recent; the
# consumers beat every PRESENCE_HEARTBEAT seconds (games.consumers).
PRESENCE_HEARTBEAT = 30
PRESENCE_TIMEOUT = timedelta(seconds=3 * PRESENCE_HEARTBEAT)

# Public: the face-up pile, the first upcard, the cards each seat took from the pile and
# still holds, and the hand's moves ("stock" never names the card drawn).
PUBLIC_VIEW_KEYS = ("phase", "knock_limit", "stock_count", "discard_count", "discard_top", "pile", "upcard",
                    "known", "history")
OWN_VIEW_KEYS = ("hand", "melds", "deadwood", "deadwood_points", "opponent_known", "cannot_discard",
                 "discard_deadwood", "drawn")


def get_table(code, lock=False):
    """The table by its code; `lock` (inside a transaction) holds its row until the end."""
    tables = Table.objects.select_for_update() if lock else Table.objects
    table = tables.filter(code=code).first() if isinstance(code, str) else None
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


def seat_name(code, seat):
    return Seat.objects.filter(table__code=code, number=seat).values_list("name", flat=True).first()


def chat_lines(table, seats, limit=50):
    """The table's latest chat lines, oldest first, with the speaker's name (`seats`: by number)."""
    names = {number: seat.name for number, seat in seats.items()}
    lines = list(ChatMessage.objects.filter(table=table).order_by("-id")[:limit])
    return [{"id": line.pk, "seat": line.seat, "name": names.get(line.seat, ""), "text": line.text} for line in reversed(lines)]


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
        "match_id": table.archive_id,
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
        "match_over": match.is_over or bool(table.ending),
        "match_winner": 1 - table.ended_by if table.ending else match.winner,
        # "resigned" or "left" by seat `ended_by` when the match ended before its end.
        "ending": table.ending or None,
        "ended_by": table.ended_by if table.ending else None,
        "can_claim": viewer is not None and seated and not (match.is_over or table.ending)
                     and claimable(table, seats, match, viewer),
    }
    state["table_wins"] = table_wins(table, state)
    state.update(own_hand_state(view, seated))
    return state


def table_wins(table, state):
    """Matches won by each seat at this table, this one included once it is over: the
    running score across rematches."""
    wins = list(wins_before(table.code, table.match_number)) if table.match_number > 1 else [0, 0]
    if state["match_over"] and state["match_winner"] is not None:
        wins[state["match_winner"]] += 1
    return wins


def result_summary(result):
    return {"winner": result.winner, "points": result.points, "kind": result.kind, "knocker": result.knocker}


def player_state(seat):
    if seat is None:
        return None
    return {"name": seat.name, "connected": is_connected(seat), "ready": seat.ready}


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
