"""How a card code ("7H", "TD", "AS") is shown to people: the one place for it.

The engine knows cards as codes; pages, the live table and the archive all draw and name
them through these functions, so a card looks and reads the same everywhere.
"""

from django.utils.translation import pgettext, pgettext_lazy

from games.engine.cards import RANKS, SUITS

# Suit letter → (CSS name, symbol, what a screen reader says).
SUIT_PARTS = {
    "C": ("clubs", "♣", pgettext_lazy("card suit", "clubs")),
    "D": ("diamonds", "♦", pgettext_lazy("card suit", "diamonds")),
    "H": ("hearts", "♥", pgettext_lazy("card suit", "hearts")),
    "S": ("spades", "♠", pgettext_lazy("card suit", "spades")),
}
RANK_WORDS = {
    "A": pgettext_lazy("card rank", "ace"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
}
RED_SUITS = "DH"


def is_card_code(code):
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def shown_rank(code):
    """What the card's corner shows: "10" for a ten, else the rank letter."""
    return "10" if code[0] == "T" else code[0]


def suit_symbol(code):
    return SUIT_PARTS[code[1]][1]


def suit_css_name(code):
    return SUIT_PARTS[code[1]][0]


def is_red(code):
    return code[1] in RED_SUITS


def card_name(code):
    """The card in words, in the active language: "7 of hearts", "ace of spades"."""
    rank = RANK_WORDS.get(code[0], shown_rank(code))
    return pgettext("card name", "%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_PARTS[code[1]][2]}
