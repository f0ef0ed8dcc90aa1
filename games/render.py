"""The table's live part as HTML, from a seat's state dict (see games.state).

Used by the table page for its first paint and by the browser socket for every change,
so both always show the same thing. Call inside the reader's language.
"""

from django.template.loader import render_to_string
from django.utils.translation import gettext, ngettext

from games import services
from games.cards import card_name, is_red, shown_rank, suit_symbol
from games.engine.cards import RANK_VALUES, RANKS, SUITS
from games.sheet_display import score_sheet
from games.state import seat_state

SORTS = ("melds", "rank", "suit")
DEFAULT_SORT = "melds"


def load_state(code, seat):
    table, seats, match = services.load(code)
    return seat_state(table, seats, match, seat)


def clean_sort(value):
    return value if value in SORTS else DEFAULT_SORT


def render_live(state, sort=DEFAULT_SORT):
    return render_to_string("games/_table_live.html", {"state": state, "live": live_context(state, sort)})


def live_context(state, sort):
    """Everything the template needs beyond the state itself: names, cards, words."""
    seat = state["seat"]
    names = [player["name"] if player else "" for player in state["players"]]
    legal = set(state["legal_moves"])
    return {
        "sort": sort,
        "names": names,
        "me": seat,
        "opponent": None if seat is None else 1 - seat,
        "players": players_in_view_order(state, names),
        "me_ready": seat is not None and state["players"][seat]["ready"],
        "winner_name": names[state["match_winner"]] if state["match_winner"] is not None else None,
        "groups": hand_groups(state, sort, legal) if seat is not None else [],
        "discard_top": card(state["discard_top"]) if state["discard_top"] else None,
        "draws": [move for move in ("pass", "pile", "stock") if move in legal],
        "can_discard": any(move.startswith("discard ") for move in legal),
        "knocks": [dict(knock, card=card(knock["card"])) for knock in state["knocks"]],
        "status": status_line(state, names),
        "showdown": showdown(state, names),
        "score_sheet": score_sheet(state["sheet"], names),
        "results": [result_line(result, names) for result in state["results"]],
        "waiting": state["players"][1] is None,
    }


def players_in_view_order(state, names):
    """Opponent on top, you at the bottom; spectators see seat 1 on top."""
    order = [0, 1] if state["seat"] == 1 else [1, 0]
    players = []
    for seat in order:
        player = state["players"][seat] or {}
        players.append({
            "seat": seat, "name": names[seat], "me": seat == state["seat"],
            "connected": player.get("connected"), "ready": player.get("ready"),
            "count": state["hand_counts"][seat], "dealer": seat == state["dealer"],
            "to_move": seat == state["to_move"],
        })
    return players


def card(code, legal=frozenset(), taken=None):
    return {
        "code": code,
        "rank": shown_rank(code),
        "suit": suit_symbol(code),
        "red": is_red(code),
        "name": card_name(code),
        "value": RANK_VALUES[RANKS.index(code[0])],
        "discard": f"discard {code}" if f"discard {code}" in legal else None,
        "taken": code == taken,
    }


def hand_groups(state, sort, legal):
    """Melds first, then the deadwood; or all the cards by rank or by suit."""
    taken = state["cannot_discard"]
    cards = lambda codes: [card(code, legal, taken) for code in codes]  # noqa: E731
    if sort == "melds":
        groups = [{"kind": "meld", "cards": cards(meld)} for meld in state["melds"]]
        if state["deadwood"]:
            groups.append({"kind": "deadwood", "deadwood": True, "cards": cards(state["deadwood"])})
        return groups
    key = rank_key if sort == "rank" else suit_key
    return [{"kind": "all", "cards": cards(sorted(state["hand"], key=key))}]


def rank_key(code):
    return RANKS.index(code[0]), SUITS.index(code[1])


def suit_key(code):
    return SUITS.index(code[1]), RANKS.index(code[0])


def status_line(state, names):
    """Whose turn it is and what they may do, in words."""
    if state["players"][1] is None:
        return gettext("Waiting for an opponent: share the link.")
    if state["match_over"]:
        return gettext("The match is over.")
    if state["hand_result"] is not None:
        return gettext("The hand is over.")
    mover = state["to_move"]
    if mover != state["seat"]:
        return gettext("%(name)s to play.") % {"name": names[mover]}
    moves = set(state["legal_moves"])
    if "pass" in moves:
        return gettext("Your turn: take the upcard or pass.")
    if "stock" in moves or "pile" in moves:
        return gettext("Your turn: draw from the stock or take the top of the discard pile.")
    return gettext("Your turn: discard a card, or knock.") if state["knocks"] else gettext("Your turn: discard a card.")


def showdown(state, names):
    """Both hands as the engine arranged them, and the outcome in words."""
    result = state["hand_result"]
    if result is None:
        return None
    players = []
    for seat in (0, 1):
        shown = result["players"][seat]
        players.append({
            "name": names[seat],
            "melds": [[card(code) for code in meld] for meld in shown["melds"]],
            "layoffs": [card(layoff["card"]) for layoff in shown["layoffs"]],
            "deadwood": [card(code) for code in shown["deadwood"]],
            "deadwood_points": shown["deadwood_points"],
            "knocker": result["knocker"] == seat,
        })
    return {"players": players, "sentence": outcome_sentence(result, names)}


def outcome_sentence(result, names):
    kind = result["kind"]
    if kind == "draw":
        return gettext("No winner: only two cards were left in the stock. The same dealer deals again.")
    knocker = result["knocker"]
    defender = 1 - knocker
    knocker_points = result["players"][knocker]["deadwood_points"]
    defender_points = result["players"][defender]["deadwood_points"]
    values = {"knocker": names[knocker], "defender": names[defender], "points": result["points"],
              "knocker_deadwood": knocker_points, "defender_deadwood": defender_points,
              "difference": knocker_points - defender_points}
    if kind == "gin":
        return gettext("%(knocker)s went gin: 25 + %(defender_deadwood)s = %(points)s") % values
    if kind == "undercut":
        return gettext("%(defender)s undercut %(knocker)s: 25 + %(difference)s = %(points)s") % values
    return gettext("%(knocker)s knocked and beat %(defender)s: %(defender_deadwood)s − %(knocker_deadwood)s = %(points)s") % values


def result_line(result, names):
    """One finished hand in a few words, for the single-hand sheet."""
    if result["winner"] is None:
        return gettext("No winner")
    points = result["points"]
    return ngettext("%(name)s won %(points)s point", "%(name)s won %(points)s points", points) % {
        "name": names[result["winner"]], "points": points,
    }

