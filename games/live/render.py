"""The table's live part as HTML, from a seat's state dict (see games.live.snapshot).

Used by the table page for its first paint and by the browser socket for every change,
so both always show the same thing. Call inside the reader's language.

The live part is a few fragments, each one element with a stable id (templates/games/live/;
those that change with nearly every move drawn in Python: games.live.drawn), each rendered
from its own small context alone: the rules line, the opponent, the piles, the announcer, the
hand's end, my seat, my hand, my moves, the guide, the hand's log, the table's end, the score
sheet. A fragment's key is that context as JSON (`digest`; with the language), so what a
fragment shows changes exactly when its key does: the browser socket sends a reader only the
fragments whose key changed since its last frame (table.js morphs each into its element), and
each fragment is rendered once per key, however many readers share it (`RENDERED`). A fragment
that grows through a hand (its moves, its discard pile: `GROWING`) is sent as its new items
alone to a page that shows the first ones.
"""

import math
from functools import lru_cache
import threading
from collections import OrderedDict
from datetime import datetime, timedelta

import orjson
from django.template import Context
from django.template.loader import get_template
from django.utils.html import format_html
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import get_language, gettext, ngettext

from games.display.cards import card_name, is_card_code
from games.engine import Move
from games.engine.cards import RANKS, SUITS
from games.display.labels import pace_words, scoring_label
from games.display.sheet import score_sheet
from games.display.showdown import showdown
from games.live.drawn import DRAWN
from games.live.pace import DAY_SECONDS

SORTS = ("melds", "rank", "suit", "custom")  # custom: the order the player dragged the cards into
DEFAULT_SORT = "melds"
MAX_ORDER = 11  # a hand holds at most 11 cards


def clean_sort(value):
    return value if value in SORTS else DEFAULT_SORT


def clean_order(value):
    """A dragged order of card codes from a browser ("7H.8H.KS", or a list): valid,
    distinct codes only."""
    codes = value.split(".") if isinstance(value, str) else value if isinstance(value, list) else []
    order = []
    for code in codes[:2 * MAX_ORDER]:
        if isinstance(code, str) and is_card_code(code) and code not in order:
            order.append(code)
    return order[:MAX_ORDER]


def render_live(state, sort=DEFAULT_SORT, order=()):
    """The whole live part, as the page paints it first."""
    return LiveView(state, sort, order).whole()


# The fragments: (id, template, its context from the state and the live context; None: not
# on the page now). The hand's end is #showdown, or #match-end for a match ended without a
# showdown. templates/games/live/table.html holds them in their places.
def _players(state, live):
    return {"players": [player for player in live["players"] if not player["me"]], "showdown": bool(live["showdown"]),
            "spectating": state["seat"] is None and not live["waiting"], "spectators": state.get("spectators")}


def _discard_pile(state, live):
    return pick(live, "knock_card", "knock_card_name", "pile", "discard_top", "discard_top_name") | {
        "draws": ["pile"] if "pile" in live["draws"] else []}


def _hand_end(state, live):
    if not (live["showdown"] or state["match_over"]):
        return None
    return {"seated": state["seat"] is not None, **pick(state, "match_over", "match_winner"),
            **pick(live, "showdown", "ending", "winner_name", "me_ready", "waiting_for", "archive_url")}


def _my_seat(state, live):
    # What the line shows, and no more: not the count of my cards, which changes every turn.
    mine = [pick(player, "seat", "name", "connected", "dealer", "ready") for player in live["players"] if player["me"]]
    return {"player": mine[0]} if mine else None


def _holds_a_hand(state, live):
    return bool(state["hand"]) and not live["showdown"]


def _may_move(state, live):
    return state["seat"] is not None and not live["showdown"] and not state["match_over"] and not live["waiting"]


def _actions(state, live):
    if not _may_move(state, live):
        return None
    # The phase only names the pile's button ("Take the upcard"): a key of its own otherwise.
    return {"phase": state["phase"] if "pile" in live["draws"] else None, **pick(live, "draws", "knocks")}


def _deal(state, live):
    """The deal's fingerprints (docs/fairness.md): the hand's commitment, its seed once the hand
    is over, the next deal's commitment while it waits, and `contribute`, that commitment
    again when this seat has yet to add its randomness to it (table.js then sends it)."""
    deal, waiting, seat = state["deal"] or {}, state["next_deal"], state["seat"]
    return {"commitment": deal.get("commitment"), "seed": deal.get("seed"),
            "next": waiting["commitment"] if waiting else None,
            "contribute": waiting["commitment"] if waiting and seat is not None and not waiting["contributed"][seat] else None}


def _table_end(state, live):
    if not (live["can_claim"] or live["claim_in"] or live["can_resign"]):
        return None
    return {"claim_at": state["claim_at"] if live["claim_in"] else None, **pick(live, "claim_in", "can_claim", "can_resign")}


FRAGMENTS = (
    ("table-rules", "rules", lambda state, live: pick(live, "rules", "table_wins", "names")),
    ("table-deal", "deal", _deal),
    ("players", "players", _players),
    ("stock-pile", "stock", lambda state, live: {"stock_count": state["stock_count"],
                                                 "draws": ["stock"] if "stock" in live["draws"] else []}),
    ("discard-pile", "discard", _discard_pile),
    ("table-news", "news", lambda state, live: {"last_move": live["moves"][-1] if live["moves"] else "",
                                                "status": live["status"], "clock": live["clock"]}),
    ("announcer", "announcer", lambda state, live: pick(live, "announcement")),
    ("showdown", "hand_end", _hand_end),
    ("my-seat", "my_seat", _my_seat),
    # My hand (templates/games/live/my_hand.html holds the two, with the sort and the notes).
    ("deadwood-count", "deadwood_count",
     lambda state, live: {"deadwood_points": state["deadwood_points"]} if _holds_a_hand(state, live) else None),
    ("hand-cards", "hand_cards", lambda state, live: pick(live, "groups") if _holds_a_hand(state, live) else None),
    ("actions", "actions", _actions),
    ("keys-note", "keys_note", lambda state, live: {} if _may_move(state, live) else None),
    ("guide", "guide", lambda state, live: pick(live, "guide") if live["guide"] else None),
    # The hand's log (templates/games/live/table.html holds the three in one <details>).
    # There from the deal, hidden while it has no moves (table.css): its first move is then a
    # fragment like any other, not the whole table again.
    ("hand-log-count", "hand_log_count", lambda state, live: {"count": len(live["moves"])}),
    ("hand-moves", "hand_moves", lambda state, live: {"moves": live["moves"], "after": 0}),
    ("log-pile", "log_pile", lambda state, live: {"pile": state["pile"] or [], "after": 0}),
    ("table-end", "table_end", _table_end),
    ("score-sheet", "score_sheet", lambda state, live: pick(live, "score_sheet")),
)
# Fragments whose items mostly grow through a hand, and the context's list of them: such a
# fragment's key is (the digest, how many items), and a page that shows the first of them
# gets only the new ones (the hand's log would otherwise be the largest part of most frames).
GROWING = {"hand-moves": "moves", "log-pile": "pile"}
# Where fragments come and go with a hand's end and the next deal, each an element of the
# table's own (its id; its template the same with underscores, in templates/games/live/):
# when one of its fragments comes or goes, a frame sends the region whole, not the table.
REGIONS = {"hand-end-slot": ("showdown", "match-end"), "controls": ("deadwood-count", "hand-cards", "actions", "keys-note")}


def pick(values, *keys):
    return {key: values[key] for key in keys}


def _plain(value):
    """What orjson leaves to us in a context: a lazy translation."""
    return str(value)


# Rendered fragments by (id, language, key): many sockets showing one reader's view (two
# tabs, spectators) render each change once. Bounded; a fragment evicted is rendered again.
RENDERED = OrderedDict()
RENDERED_MAX = 512
_rendered_lock = threading.Lock()


class LiveView:
    """One reader's live table at one state, as fragments: `keys` (id → key) says what each
    fragment shows, `html(id)` renders one (or finds it rendered), `whole()` is the page's
    live part, `frame(keys)` the part changed since a frame of those keys."""

    def __init__(self, state, sort=DEFAULT_SORT, order=()):
        self.language = get_language()
        self.live = live_context(state, sort, order, self.language)
        self.sort = sort
        self.felt = felt_tag(state["to_move"], self.live["my_turn"], self.live["waiting"], self.live["can_discard"],
                             state["match_over"])
        self.contexts, self.keys = {}, {"felt": self.felt}
        for fragment, template, context in FRAGMENTS:
            value = context(state, self.live)
            if value is not None:
                if fragment == "showdown" and not self.live["showdown"]:
                    fragment = "match-end"  # the match ended without a showdown (a resignation, a claim)
                self.contexts[fragment] = (template, value)
                self.keys[fragment] = digest(value)
                if fragment in GROWING:
                    self.keys[fragment] = (self.keys[fragment], len(value[GROWING[fragment]]))

    def html(self, fragment, after=0):
        """The fragment as it is now; with `after`, a growing one's items after the first
        `after` alone."""
        template, context = self.contexts[fragment]
        if after:
            items = GROWING[fragment]
            context = {**context, items: context[items][after:], "after": after}
        cached = (fragment, self.language, self.keys[fragment], after)
        with _rendered_lock:
            html = RENDERED.get(cached)
            if html is not None:
                RENDERED.move_to_end(cached)
                return html
        draw = DRAWN.get(template)
        html = draw(context, self.language) if draw else fragment_template(template).render(Context({"live": context}))
        with _rendered_lock:
            RENDERED[cached] = html
            if len(RENDERED) > RENDERED_MAX:
                RENDERED.popitem(last=False)
        return html

    def whole(self):
        return self.render("table", self.contexts)

    def render(self, template, fragments):
        """The live template `template` around the fragments named (those on the table now)."""
        parts = {fragment.replace("-", "_"): self.html(fragment) for fragment in fragments if fragment in self.contexts}
        return get_template(f"games/live/{template}.html").render({"felt": self.felt, "parts": parts, "sort": self.sort})

    def frame(self, keys):
        """The fragments changed since a frame of `keys`, after an empty felt bearing the
        felt's own attributes: a region whole where one of its fragments comes or goes
        (`REGIONS`); None when one comes or goes elsewhere: then only the whole will do."""
        if keys is None:
            return None
        came_or_went = keys.keys() ^ self.keys.keys()
        regions = [region for region, fragments in REGIONS.items() if came_or_went.intersection(fragments)]
        in_regions = {fragment for region in regions for fragment in REGIONS[region]}
        if not came_or_went <= in_regions:
            return None
        return self.felt + "</div>" + "".join(self.render(region.replace("-", "_"), REGIONS[region]) for region in regions) + "".join(
            self.piece(fragment, keys[fragment]) for fragment in self.contexts
            if fragment not in in_regions and keys[fragment] != self.keys[fragment])

    def piece(self, fragment, shown):
        """What a page showing `fragment` at the key `shown` needs of it now."""
        return self.html(fragment, self.grown_from(fragment, shown))

    def grown_from(self, fragment, shown):
        """How many items a page showing a growing fragment at the key `shown` has that are
        still its first ones now (0: it must be replaced whole)."""
        if fragment not in GROWING:
            return 0
        (shown_digest, count), (_, context) = shown, self.contexts[fragment]
        items = context[GROWING[fragment]]
        if not 0 < count < len(items) or digest({**context, GROWING[fragment]: items[:count]}) != shown_digest:
            return 0
        return count


@lru_cache(maxsize=None)
def fragment_template(name):
    """A fragment's template, found once (the loaders are cached too, but a lookup through
    them and Django's per-render context set-up are a fair part of a small fragment's render;
    none of these templates reads the request)."""
    return get_template(f"games/live/{name}.html").template


# A handful of combinations, each built once: it opens every frame.
@lru_cache(maxsize=64)
def felt_tag(to_move, my_turn, waiting, can_discard, match_over):
    """The felt's opening tag, bearing what the page's style reads of the table. Whose turn it
    is marks a player from here (table.css), not in the players' fragments: else both would
    change, and be sent, with every turn."""
    return format_html(
        '<div class="felt{}" id="felt"{} data-waiting="{}" data-my-turn="{}" data-can-discard="{}" data-match-over="{}">',
        " my-turn" if my_turn else "", format_html(' data-to-move="{}"', to_move) if to_move is not None else "",
        flag(waiting), flag(my_turn), flag(can_discard), flag(match_over))


def digest(context):
    """A fragment's context as its key, its JSON: the same exactly when the context is. The
    bytes themselves, not a hash of them: hashing cost more than the JSON (a view makes a key a
    fragment), and comparing them costs less (docs/performance.md)."""
    return orjson.dumps(context, default=_plain, option=orjson.OPT_NON_STR_KEYS)


def flag(value):
    return "true" if value else "false"


def live_context(state, sort, order=(), language=None):
    """Everything the template needs beyond the state itself: names, cards, words (in
    `language`, the active one: read once here, it is a fair part of the cost otherwise)."""
    language = language or get_language()
    seat = state["seat"]
    names = display_names(state["players"])
    legal = set(state["legal_moves"])
    face_down = knock_card(state)
    context = {
        "sort": sort,
        "names": names,
        "me": seat,
        "opponent": None if seat is None else 1 - seat,
        "players": players_in_view_order(state, names),
        "me_ready": seat is not None and state["players"][seat]["ready"],
        "winner_name": names[state["match_winner"]] if state["match_winner"] is not None else None,
        "groups": hand_groups(state, sort, legal, order) if seat is not None else [],
        "discard_top": state["discard_top"],
        "discard_top_name": card_name(state["discard_top"], language) if state["discard_top"] else None,
        "knock_card": face_down,
        "knock_card_name": card_name(face_down, language) if face_down else None,
        "draws": [move for move in ("pass", "pile", "stock") if move in legal],
        "can_discard": any(Move.from_text(move).verb == "discard" for move in legal),
        "knocks": state["knocks"],
        "status": status_line(state, names),
        "rules": rules_line(state, language),
        "moves": move_lines(state, names, language),
        "pile": list(reversed(state["pile"] or [])),  # the top first, as a fan shows it
        "opponent_known": opponent_known(state),
        "drawn": state["drawn"],
        "ending": ending_line(state, names),
        "waiting_for": waiting_line(state, names),
        "my_turn": seat is not None and state["to_move"] == seat and state["hand_result"] is None,
        "table_wins": state["table_wins"] if state["match_number"] > 1 or state["match_over"] else None,
        "showdown": showdown(state["hand_result"], names) if state["hand_result"] else None,
        "score_sheet": sheet_layout(state["sheet"], names),
        "waiting": state["waiting_for_opponent"],
        "can_claim": state["can_claim"],
        "claim_in": claim_in(state),
        "clock": clock_line(state, names),
        "can_resign": seat is not None and state["players"][1] is not None and not state["match_over"],
        "guide": guide_step(state, names),
        "archive_url": reverse("archive:match", kwargs={"match_id": state["match_id"]})
        if state["match_over"] and state["match_id"] else None,
    }
    context["announcement"] = " ".join(filter(None, [context["moves"][-1] if context["moves"] else "",
                                                     context["ending"], context["status"]]))
    return context


def claim_in(state):
    """How long until this seat may claim the match, as m:ss (None: no claim is coming); the
    page counts it down (countdown.js) and the server offers the claim when it is time."""
    if state["can_claim"] or not state["claim_at"]:
        return None
    return time_left(state["claim_at"])


def clock_line(state, names):
    """The turn clock as the page shows it, or None when no turn is timed: when it runs out
    (`deadline`, which the page counts down: countdown.js), the time left now (m:ss), and
    whose it is (`mine`, `name`; neither at a showdown, which waits on "Next hand"). A seat
    with a bank left sees it apart, as a chess clock shows it: the turn's own time (`left`,
    until `turn_ends`), then the bank (`bank`, what is left of it now)."""
    clock = state.get("clock")
    if not clock or not clock["deadline"]:
        return None
    seat = clock["seat"]
    line = {"deadline": clock["deadline"], "left": time_left(clock["deadline"]),
            "mine": seat is not None and seat == state["seat"], "name": names[seat] if seat is not None else None}
    bank = clock["banks"][seat] if seat is not None and clock["banks"] else 0
    if bank > 0:
        turn_ends = datetime.fromisoformat(clock["deadline"]) - timedelta(seconds=bank)
        line.update(turn_ends=turn_ends.isoformat(), left=time_left(turn_ends.isoformat()),
                    bank=time_left(clock["deadline"], since=max(turn_ends, timezone.now())))
    return line


def time_left(moment, since=None):
    """The time from now (or `since`) until `moment` (ISO 8601), as m:ss (h:mm:ss from an hour),
    never below 0:00, as countdown.js writes it; from a day (a pace of days a turn) in words,
    "2 days, 3 hours", which countdown.js leaves as it is."""
    until = datetime.fromisoformat(moment)
    left = max(0, math.ceil((until - (since or timezone.now())).total_seconds()))
    if left >= DAY_SECONDS:
        return timeuntil(until, since, depth=2)
    if left >= 3600:
        return f"{left // 3600}:{left % 3600 // 60:02d}:{left % 60:02d}"
    return f"{left // 60}:{left % 60:02d}"


def sheet_layout(sheet, names):
    """`score_sheet(sheet, names)`, laid out once for each sheet and names: the sheet changes
    only at a hand's end, and laying out a long Hollywood sheet for every reader at every move
    was a large part of building a reader's view (docs/performance.md). The layout is
    shared: read it, never change it."""
    return _sheet_layout(orjson.dumps([sheet, names]))


@lru_cache(maxsize=256)
def _sheet_layout(key):
    sheet, names = orjson.loads(key)
    return score_sheet(sheet, names)


def display_names(players):
    """The players' names as the table shows them: two alike ("Cleo" playing the club level,
    Cleo) are told apart, the computer's tagged as such, two people's by their seat."""
    names = [player["name"] if player else "" for player in players]
    if not all(players) or names[0].strip().casefold() != names[1].strip().casefold():
        return names
    if any(player.get("computer") for player in players):
        return [gettext("%(name)s (computer)") % {"name": name} if player.get("computer") else name
                for name, player in zip(names, players)]
    return [gettext("%(name)s (seat %(seat)s)") % {"name": name, "seat": seat + 1} for seat, name in enumerate(names)]


def knock_card(state):
    """The card a knock (or a gin) laid face down, once the hand has ended on it: not on the
    pile, and shown there as a card back."""
    history = state["history"] or []
    if state["hand_result"] is None or not history:
        return None
    move = Move.from_text(history[-1][1])
    return move.card.code() if move.verb == "knock" else None


def guide_step(state, names):
    """A short hint for the step at hand, in a first hand against the computer (match 1,
    hand 1): what to look for, in the words of the rules page; None otherwise. The page
    hides it once the player has skipped the guide (a cookie, table.js)."""
    seat = state["seat"]
    players = state["players"]
    if seat is None or players[1 - seat] is None or not players[1 - seat].get("computer"):
        return None
    if state["match_number"] != 1 or state["hand_number"] != 1 or state["match_over"]:
        return None
    moves = set(state["legal_moves"])
    if state["hand_result"] is not None:
        return {"step": "showdown", "anchor": "showdown", "text": gettext(
            "The hand is over: both hands are shown, the knocker’s opponent lays off what fits on the "
            "knocker’s melds, and the points go on the score sheet.")}
    if state["to_move"] != seat:
        return {"step": "wait", "anchor": "melds", "text": gettext(
            "While %(name)s plays, look for melds in your hand: three or four cards of the same rank, or three "
            "or more cards in a row in one suit.") % {"name": names[1 - seat]}}
    if "pass" in moves:
        return {"step": "upcard", "anchor": "deal", "text": gettext(
            "The first upcard: take it if it goes with two of your cards (the same rank, or next to them in "
            "the same suit); otherwise pass.")}
    if "stock" in moves or "pile" in moves:
        return {"step": "draw", "anchor": "turns", "text": gettext(
            "Draw: take the top card of the discard pile if it goes into a meld; otherwise draw from the "
            "stock.")}
    if any(knock["deadwood"] == 0 for knock in state["knocks"]):
        return {"step": "gin", "anchor": "gin", "text": gettext(
            "Gin: all your cards but the one you discard are in melds. Press the Gin button to lay your "
            "hand down for a bonus of 25.")}
    if state["knocks"]:
        return {"step": "knock", "anchor": "knocking", "text": gettext(
            "You may knock: your deadwood would be %(limit)s or less. Knock to end the hand now, or play on "
            "for gin.") % {"limit": state["knock_limit"]}}
    return {"step": "discard", "anchor": "turns", "text": gettext(
        "Discard: give up a card that is in no meld, a high one first (a jack, queen or king counts 10). "
        "The number on each card is the deadwood you would keep.")}


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
            "computer": player.get("computer", False),
        "backs": max(0, state["hand_counts"][seat] - len(state["known"][seat])),
            "known": state["known"][seat],
        })
    return players


def hand_groups(state, sort, legal, order=()):
    """Melds first, then the deadwood; or all the cards by rank or by suit. Each card as what
    draws it (games.live.drawn.hand_card's arguments after the language): its code, whether it
    may be discarded now, was just taken from the pile (and may not be), was just drawn, the
    deadwood its discard would leave, whether it is deadwood, its meld. Data, not HTML: the
    hand is drawn only when this changes, not at every view of it."""
    deadwood = set(state["deadwood"])
    melded = {code: index for index, meld in enumerate(state["melds"]) for code in meld}
    after, taken, drawn = state["discard_deadwood"] or {}, state["cannot_discard"], state["drawn"]

    def cards(codes):
        return [(code, f"discard {code}" in legal, code == taken, code == drawn, after.get(code), code in deadwood,
                 melded.get(code)) for code in codes]

    if sort == "melds":
        groups = [{"kind": "meld", "cards": cards(meld)} for meld in state["melds"]]
        if state["deadwood"]:
            groups.append({"kind": "deadwood", "cards": cards(state["deadwood"])})
        return groups
    if sort == "custom":
        # Cards the player has not placed yet (the one just drawn) go to the right end.
        placed = {code: index for index, code in enumerate(order)}
        arranged = sorted(state["hand"], key=lambda code: placed.get(code, len(placed)))
        return [{"kind": "all", "cards": cards(arranged)}]
    key = rank_key if sort == "rank" else suit_key
    return [{"kind": "all", "cards": cards(sorted(state["hand"], key=key))}]


def rank_key(code):
    return RANKS.index(code[0]), SUITS.index(code[1])


def suit_key(code):
    return SUITS.index(code[1]), RANKS.index(code[0])


def status_line(state, names):
    """Whose turn it is and what they may do, in words."""
    if state["waiting_for_opponent"]:
        if state["seat"] == 0:
            return gettext("Waiting for an opponent: share the link.")
        return gettext("%(name)s is waiting for an opponent: take the free seat to play.") % {"name": names[0]}
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


def rules_line(state, language=None):
    """The table's rules in a few words: mode, target, Straight Gin, Oklahoma's knock limit."""
    rules, clock = state["rules"], state.get("clock")
    return list(_rules_line(language or get_language(), rules["scoring"], rules["target"], clock and clock["seconds"],
                            rules["straight"], rules["oklahoma"], state["knock_limit"], rules.get("pace", 0)))


# The same all match long: worded once per language and table's rules.
@lru_cache(maxsize=256)
def _rules_line(_language, scoring, target, clock_seconds, straight, oklahoma, knock_limit, pace=0):
    parts = [str(scoring_label(scoring))]
    if scoring != "hand":
        parts.append(ngettext("to %(target)s point", "to %(target)s points", target) % {"target": target})
    if clock_seconds:
        parts.append(ngettext("Turn clock: %(seconds)s second a turn", "Turn clock: %(seconds)s seconds a turn",
                              clock_seconds) % {"seconds": clock_seconds})
    if pace:
        parts.append(pace_words(pace))
    if straight:
        parts.append(gettext("Straight Gin: gin only, no knocking"))
    elif oklahoma:
        parts.append(gettext("Oklahoma: knock with at most %(limit)s") % {"limit": knock_limit})
    return tuple(parts)


def move_lines(state, names, language=None):
    """This hand's moves as sentences, oldest first: what each player did, with the card
    wherever it was face up (a draw from the stock never names its card), and whether the
    computer played it for them because their turn clock ran out."""
    history = tuple(tuple(move) for move in state["history"] or ())
    by_clock = frozenset((state.get("clock") or {}).get("played", ()))
    return list(_lines_and_pile(language or get_language(), tuple(names), state["upcard"], history,
                                (state["hand_result"] or {}).get("kind") == "gin", by_clock)[0])


# The same for every reader of a table, and each move's result the one before it plus a line:
# built from the cached result for the history without its last move (a hand's log costs a
# line a move, not the whole log again). Only the last move can be a knock, so the shorter
# history's `gin` is False, and its clock's marks are those before its end.
@lru_cache(maxsize=1024)
def _lines_and_pile(language, names, upcard, history, gin, by_clock):
    """(the lines of `history`, the discard pile after it, bottom first)."""
    if not history:
        return (), (upcard,) if upcard else ()
    index = len(history) - 1
    lines, pile = _lines_and_pile(language, names, upcard, history[:-1], False,
                                  frozenset(mark for mark in by_clock if mark < index))
    seat, text = history[-1]
    line, pile = _move_line(Move.from_text(text), names[seat], pile, gin, index in by_clock)
    return lines + (line,), pile


def _move_line(move, name, pile, gin, clock):
    """(the sentence for one move, the discard pile after it)."""
    values = {"name": name}
    if move.verb == "pass":
        line = (gettext("%(name)s ran out of time: the computer passed on the upcard.") if clock
                else gettext("%(name)s passed on the upcard."))
    elif move.verb == "stock":
        line = (gettext("%(name)s ran out of time: the computer drew from the stock.") if clock
                else gettext("%(name)s drew from the stock."))
    elif move.verb == "pile":
        values["card"] = card_name(pile[-1]) if pile else ""
        pile = pile[:-1]
        line = (gettext("%(name)s ran out of time: the computer took the %(card)s from the pile.") if clock
                else gettext("%(name)s took the %(card)s from the pile."))
    elif move.verb == "knock":
        # The knock card is laid face down, not on the pile; a knock with no deadwood is
        # gin (the only knock Straight Gin allows).
        values["card"] = card_name(move.card.code())
        line = knock_line(gin, clock)
    else:
        code = move.card.code()
        pile = pile + (code,)
        values["card"] = card_name(code)
        line = (gettext("%(name)s ran out of time: the computer discarded the %(card)s.") if clock
                else gettext("%(name)s discarded the %(card)s."))
    return line % values, pile


def knock_line(gin, by_clock):
    if by_clock:
        return (gettext("%(name)s ran out of time: the computer went gin, laying the %(card)s face down.") if gin
                else gettext("%(name)s ran out of time: the computer knocked, laying the %(card)s face down."))
    return (gettext("%(name)s went gin, laying the %(card)s face down.") if gin
            else gettext("%(name)s knocked, laying the %(card)s face down."))


def opponent_known(state):
    if state["seat"] is None:
        return []
    return state["known"][1 - state["seat"]]


def ending_line(state, names):
    """Who resigned or left, when a match ended before it was played out."""
    if not state["ending"]:
        return ""
    values = {"name": names[state["ended_by"]], "winner": names[1 - state["ended_by"]]}
    if state["ending"] == "resigned":
        return gettext("%(name)s resigned; the match goes to %(winner)s.") % values
    if state["ending"] == "time":
        return gettext("%(name)s ran out of time; the match goes to %(winner)s.") % values
    return gettext("%(name)s left the table: %(winner)s claimed the match.") % values


def waiting_line(state, names):
    """After "Next hand" or "Rematch": whom we wait for, or who waits for us."""
    seat = state["seat"]
    if seat is None or state["hand_result"] is None and not state["match_over"]:
        return ""
    other = 1 - seat
    if state["players"][other] is None:
        return ""
    values = {"name": names[other]}
    mine, theirs = state["players"][seat]["ready"], state["players"][other]["ready"]
    if state["match_over"]:
        if mine:
            return gettext("Waiting for %(name)s to accept the rematch…") % values
        return gettext("%(name)s would like a rematch.") % values if theirs else ""
    if mine:
        return gettext("Waiting for %(name)s to press “Next hand”…") % values
    return gettext("%(name)s is ready for the next hand.") % values if theirs else ""
