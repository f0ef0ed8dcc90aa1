"""The live table's fragments drawn in Python rather than by Django's template engine: those
that change with nearly every move, for which the engine's rendering was most of a frame's cost
(docs/performance.md). Each is a function of its fragment's context (games.live.render's
FRAGMENTS) and the reader's language, taken once by the reader's view.

Those that have a template in templates/games/live/ (the news, the stock, the log's pile and
count, the deadwood count, the announcer, the keys' note) draw byte for byte what it renders,
with its escaping: the catalogue's words as they are, every value escaped
(tests/live/test_drawn_fragments.py holds them equal, state after state, in every language).
Calls to gettext stay outside the f-strings, where xgettext sees them.
"""

from functools import lru_cache

from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from games.display.cards import card_name, card_short
from games.display.messages import message
from games.templatetags.cards import card, picture


def discard_pile(live, language):
    """The discard pile: the pile's card is a button for the player who may take it. A picked
    card is discarded by a tap here, or dragged here (table.js)."""
    if live["knock_card"]:
        unders = "".join(picture(language, code, "under") for code in reversed(live["pile"][:3]))
        # As blocktranslate: the values are escaped, the catalogue's own text is not.
        label = gettext("The knock card, face down: the %(card)s") % {"card": escape(live["knock_card_name"])}
        top = f'<span class="card back top knock-card" id="knock-card" role="img" aria-label="{label}"></span>'
    else:
        unders = "".join(picture(language, code, "under") for code in reversed(live["pile"][1:4]))
        code = live["discard_top"]
        if not code:
            top = empty_pile(language)
        elif "pile" in live["draws"]:
            label = gettext("%(short)s: take the %(card)s") % {
                "short": escape(card_short(code)), "card": escape(live["discard_top_name"])}
            top = card(code, move="pile", label=mark_safe(label), classes="top")
        else:
            top = picture(language, code, "top")
    return mark_safe(f'<div class="pile discard" id="discard-pile">\n<div class="pile-fan" id="pile-fan">\n{unders}\n{top}\n'
                     f'</div>\n<span class="pile-count">{pile_count(language)}</span>\n</div>\n')


@lru_cache(maxsize=16)
def empty_pile(_language):
    label = escape(gettext("The discard pile is empty"))
    word = escape(pgettext("discard pile", "empty"))
    return (f'<span class="card empty-pile" role="img" aria-label="{label}">'
            f'<span class="empty-word" aria-hidden="true">{word}</span></span>')


@lru_cache(maxsize=16)
def pile_count(_language):
    return escape(gettext("Discard pile"))


def hand_cards(live, language):
    """My hand, its groups of card buttons (each card as games.live.render.hand_groups gives
    it). One tab stop for the whole hand; the arrows move between the cards (table.js)."""
    labels = group_labels(language)
    groups = "".join(
        f'\n<div class="group {conditional_escape(group["kind"])}">\n{labels.get(group["kind"], "")}'
        f'\n<div class="group-cards">\n{group_cards(group["cards"], language)}\n</div>\n</div>\n'
        for group in live["groups"]
    )
    return mark_safe(f'<div class="groups" id="hand-cards">\n{groups}\n</div>\n')


def group_cards(cards, language):
    return "".join(hand_card(language, *card) for card in cards)


# A hand's cards are mostly the same from one state to the next (and on both of a seat's
# pages): each is drawn once per language and look.
@lru_cache(maxsize=4096)
def hand_card(language, code, discardable, taken, drawn, after, is_deadwood, meld):
    """One card of the hand as HTML: with its discard move and what a press on it says."""
    discard = f"discard {code}" if discardable else None
    values = {"card": card_name(code, language), "short": card_short(code), "after": after}
    label = None
    if discard:
        label = (gettext("%(short)s, just drawn: discard the %(card)s, leaving deadwood %(after)s") if drawn
                 else gettext("%(short)s: discard the %(card)s, leaving deadwood %(after)s")) % values
    elif taken:
        label = gettext("%(short)s, just taken from the pile: it cannot be discarded this turn") % values
    marks = (("deadwood", is_deadwood), ("taken", taken), ("drawn", drawn), (f"meld-{meld}", meld is not None))
    return card(code, move=discard, label=label, classes=" ".join(name for name, on in marks if on),
                refusal=message("illegal_move", "card_just_taken") if taken else None,
                after=after if discard else None)


@lru_cache(maxsize=16)
def group_labels(_language):
    labels = {"meld": pgettext("gin rummy", "Meld"), "deadwood": pgettext("gin rummy", "Deadwood")}
    return {kind: f'<span class="group-label">{escape(label)}</span>' for kind, label in labels.items()}


def hand_moves(live, language):
    """The hand's moves, oldest first. With data-append: only the lines after the first N, which
    the page shows already (table.js adds these to them)."""
    lines = "".join(f"<li>{conditional_escape(line)}</li>" for line in live["moves"])
    return mark_safe(f'<ol class="moves" id="hand-moves"{appended(live)}>{lines}</ol>\n')


def appended(live):
    return f' data-append="{live["after"]}"' if live["after"] else ""


def log_pile(live, language):
    """The whole discard pile, from the bottom up (it grows at its end until a card is taken
    from it); with data-append, only the cards after the first N."""
    cards = "".join(picture(language, code, "") for code in live["pile"])
    return mark_safe(f'<span class="cards" id="log-pile"{appended(live)}>{cards}</span>\n')


def news(live, language):
    """The last move, whose turn it is, and the turn clock."""
    clock = turn_clock(live["clock"]) if live["clock"] else ""
    return mark_safe(f'<div class="table-news" id="table-news">\n<p class="last-move" id="last-move">'
                     f'{conditional_escape(live["last_move"])}</p>\n<p class="status" id="status-line" '
                     f'lang="{conditional_escape(language)}">{conditional_escape(live["status"])}</p>\n{clock}\n</div>\n')


def turn_clock(clock):
    values = {key: conditional_escape(clock.get(key)) for key in ("left", "bank", "name")}
    values["time"] = values.pop("left")
    if clock.get("bank") and clock["mine"]:
        words = gettext("Your time: <span data-countdown>%(time)s</span> + <span data-bank>%(bank)s</span> bank")
    elif clock.get("bank"):
        words = gettext("Time left for %(name)s: <span data-countdown>%(time)s</span> + "
                        "<span data-bank>%(bank)s</span> bank")
    elif clock["mine"]:
        words = gettext("Your time: <span data-countdown>%(time)s</span>")
    elif clock["name"]:
        words = gettext("Time left for %(name)s: <span data-countdown>%(time)s</span>")
    else:
        words = gettext("The next hand is dealt by itself in <span data-countdown>%(time)s</span>")
    mine = " mine" if clock["mine"] else ""
    turn_to = f' data-turn-to="{conditional_escape(clock["turn_ends"])}"' if clock.get("bank") else ""
    return (f'<p class="turn-clock{mine}" id="turn-clock" data-countdown-to="{conditional_escape(clock["deadline"])}"'
            f'{turn_to}>{words % values}</p>')


def stock(live, language):
    """The stock: a button for the player who may draw from it."""
    count = live["stock_count"]
    if "stock" in live["draws"]:
        label = gettext("Draw from the stock")
        pile = f'<button type="button" class="card back" id="draw-stock" data-move="stock" aria-label="{label}"></button>'
    else:
        label = ngettext("Stock, %(cards)s card", "Stock, %(cards)s cards", count) % {"cards": count}
        pile = f'<span class="card back" role="img" aria-label="{label}"></span>'
    return mark_safe(f'<div class="pile stock" id="stock-pile">\n\n{pile}\n<span class="pile-count" aria-hidden="true">'
                     f'{count}</span>\n</div>\n')


def hand_log_count(live, language):
    count = live["count"]
    words = ngettext("This hand: %(moves)s move", "This hand: %(moves)s moves", count) % {"moves": count}
    return mark_safe(f'<summary id="hand-log-count">{words}</summary>\n')


def deadwood_count(live, language):
    words = gettext("deadwood %(points)s") % {"points": conditional_escape(live["deadwood_points"])}
    return mark_safe(f'<span class="deadwood-count" id="deadwood-count">{words}</span>\n')


def announcer(live, language):
    return mark_safe(f'<p class="visually-hidden" id="announcer" aria-live="polite" aria-atomic="true">'
                     f'{conditional_escape(live["announcement"])}</p>\n')


def keys_note(live, language):
    return _keys_note(language)


@lru_cache(maxsize=16)
def _keys_note(_language):
    words = gettext("Keys: arrows choose a card, Enter picks it and Enter again discards it; D draws from the stock, "
                    "P takes from the pile, K knocks.")
    return mark_safe(f'<p class="keys-note" id="keys-note">{words}</p>\n')


# The fragments drawn here, by their template's name (games.live.render.FRAGMENTS).
DRAWN = {
    "discard": discard_pile, "hand_cards": hand_cards, "hand_moves": hand_moves, "log_pile": log_pile, "news": news,
    "stock": stock, "hand_log_count": hand_log_count, "deadwood_count": deadwood_count, "announcer": announcer,
    "keys_note": keys_note,
}
