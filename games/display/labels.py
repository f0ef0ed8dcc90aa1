"""The words for the engine's codes that pages show: scoring modes and how a hand ended.

One entry per scoring mode: adding a mode to the engine means one line here (and the rules
pages), and the form, the archive's filter and every page that names a mode follow.
"""

from functools import lru_cache

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext, npgettext, pgettext, pgettext_lazy

from games.computer import LEVELS
from games.engine import HOLLYWOOD, ONE_GAME, SCORING_MODES, SINGLE_HAND
from games.engine.moves import Move
from games.templatetags.cards import picture

# Per mode: its short name, and what the form that opens a table says of it.
SCORING_LABELS = {
    HOLLYWOOD.name: (pgettext_lazy("scoring mode", "Hollywood"), pgettext_lazy("scoring mode", "Hollywood (three games at once)")),
    ONE_GAME.name: (pgettext_lazy("scoring mode", "One game"), pgettext_lazy("scoring mode", "One game")),
    SINGLE_HAND.name: (pgettext_lazy("scoring mode", "Single hand"), pgettext_lazy("scoring mode", "Single hand")),
}
assert set(SCORING_LABELS) == {mode.name for mode in SCORING_MODES}, "every scoring mode needs its label"

HAND_KIND_LABELS = {
    "gin": pgettext_lazy("hand result", "Gin"),
    "knock": pgettext_lazy("hand result", "Knock"),
    "undercut": pgettext_lazy("hand result", "Undercut"),
    "draw": pgettext_lazy("hand result", "No winner"),
}


COMPUTER_LEVEL_LABELS = {
    "beginner": pgettext_lazy("computer level", "Beginner"),
    "club": pgettext_lazy("computer level", "Club player"),
    "expert": pgettext_lazy("computer level", "Expert"),
}
assert tuple(COMPUTER_LEVEL_LABELS) == LEVELS, "every level of the computer needs its label, weakest first"


def move_html(move):
    """A move as the archive says it after a player's name (safe HTML): "draws from the stock",
    "discards" and the card's picture. `move` is the engine's text form ("discard 7H")."""
    return _move_html(get_language(), move)


# A review names a thousand moves a page, out of some hundred distinct ones: each built once per language.
@lru_cache(maxsize=128 * 8)
def _move_html(language, text):
    move = Move.from_text(text)
    words = {
        "pass": pgettext("move", "passes"),
        "pile": pgettext("move", "takes the discard"),
        "stock": pgettext("move", "draws from the stock"),
        "discard": pgettext("move", "discards"),
        "knock": pgettext("move", "knocks with"),
    }[move.verb]
    card = f" {picture(language, move.card.code(), '')}" if move.card is not None else ""
    return mark_safe(escape(words) + card)


def scoring_label(name):
    return SCORING_LABELS[name][0]


def clock_choices():
    """(seconds a turn, label) of the turn clocks a table may be opened with, no clock first."""
    return [(0, gettext("No clock"))] + [
        (seconds, ngettext("%(seconds)s second a turn", "%(seconds)s seconds a turn", seconds) % {"seconds": seconds})
        for seconds in settings.GAMES_CLOCKS]


def pace_words(days):
    """A pace of days a turn, with its rule in plain words."""
    return ngettext("%(days)s day a turn: whoever runs out of time loses the match",
                    "%(days)s days a turn: whoever runs out of time loses the match", days) % {"days": days}


def pace_choices():
    """(days a turn, label) of the paces a table may be opened with, real time first."""
    return [(0, gettext("Real time"))] + [
        (days, ngettext("%(days)s day a turn", "%(days)s days a turn", days) % {"days": days})
        for days in settings.GAMES_PACES]


def scoring_choices():
    """(name, what the form says, the mode) for every mode, in the engine's order."""
    return [(mode.name, SCORING_LABELS[mode.name][1], mode) for mode in SCORING_MODES]


# Counts that, between them, fall in every plural category CLDR gives whole numbers (zero, one,
# two, few, many, other) in any language: a script learns each category's words from them.
PLURAL_SAMPLES = (0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1000000)


def unread_forms():
    """"3 new" (chat lines unread) for each sample count, with {count} where the number goes:
    the table's script takes the one whose count Intl.PluralRules puts in its count's category."""
    return {count: npgettext("chat messages", "%(count)s new", "%(count)s new", count) % {"count": "{count}"}
            for count in PLURAL_SAMPLES}
