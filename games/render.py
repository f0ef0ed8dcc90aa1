"""The table's live part as HTML, from a seat's state dict (see games.state).

Used by the table page for its first paint and by the browser socket for every change,
so both always show the same thing. Call inside the reader's language.
"""

from django.template.loader import render_to_string
from django.utils.translation import gettext

from games.cards import card_name
from games.engine import Move
from games.engine.cards import RANKS, SUITS
from games.sheet_display import score_sheet
from games.showdown_display import showdown

SORTS = ("melds", "rank", "suit")
DEFAULT_SORT = "melds"


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
        "discard_top": state["discard_top"],
        "discard_top_name": card_name(state["discard_top"]) if state["discard_top"] else None,
        "draws": [move for move in ("pass", "pile", "stock") if move in legal],
        "can_discard": any(Move.from_text(move).verb == "discard" for move in legal),
        "knocks": state["knocks"],
        "status": status_line(state, names),
        "showdown": showdown(state["hand_result"], names) if state["hand_result"] else None,
        "score_sheet": score_sheet(state["sheet"], names),
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


def hand_groups(state, sort, legal):
    """Melds first, then the deadwood; or all the cards by rank or by suit. Each card with
    the discard it may make now, if any."""
    taken = state["cannot_discard"]

    deadwood = set(state["deadwood"])

    def cards(codes):
        return [{"code": code, "discard": f"discard {code}" if f"discard {code}" in legal else None,
                 "name": card_name(code),
                 "classes": " ".join(name for name, on in (("deadwood", code in deadwood), ("taken", code == taken)) if on)}
                for code in codes]

    if sort == "melds":
        groups = [{"kind": "meld", "cards": cards(meld)} for meld in state["melds"]]
        if state["deadwood"]:
            groups.append({"kind": "deadwood", "cards": cards(state["deadwood"])})
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
