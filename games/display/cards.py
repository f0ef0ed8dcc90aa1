"""How a card code ("7H", "TD", "AS") is shown to people: the one place for it.

The engine knows cards as codes; pages, the live table and the archive all draw and name
them through these functions, so a card looks and reads the same everywhere.
"""

from functools import lru_cache

from django.utils.translation import get_language, pgettext_lazy

from games.engine.cards import RANKS, SUITS

# Suit letter → (CSS name, symbol).
SUIT_PARTS = {
    "C": ("clubs", "♣"),
    "D": ("diamonds", "♦"),
    "H": ("hearts", "♥"),
    "S": ("spades", "♠"),
}
# Each card is one message, not "rank of suit" put together: Czech makes the suit an
# adjective agreeing with the rank ("pikové eso", "srdcová sedma", "křížový kluk"),
# German joins the two ("Pik-Ass"), Turkish adds a suffix to the rank ("maça ası").
CARD_NAMES = {
    "AC": pgettext_lazy("card name", "ace of clubs"),
    "2C": pgettext_lazy("card name", "2 of clubs"),
    "3C": pgettext_lazy("card name", "3 of clubs"),
    "4C": pgettext_lazy("card name", "4 of clubs"),
    "5C": pgettext_lazy("card name", "5 of clubs"),
    "6C": pgettext_lazy("card name", "6 of clubs"),
    "7C": pgettext_lazy("card name", "7 of clubs"),
    "8C": pgettext_lazy("card name", "8 of clubs"),
    "9C": pgettext_lazy("card name", "9 of clubs"),
    "TC": pgettext_lazy("card name", "10 of clubs"),
    "JC": pgettext_lazy("card name", "jack of clubs"),
    "QC": pgettext_lazy("card name", "queen of clubs"),
    "KC": pgettext_lazy("card name", "king of clubs"),
    "AD": pgettext_lazy("card name", "ace of diamonds"),
    "2D": pgettext_lazy("card name", "2 of diamonds"),
    "3D": pgettext_lazy("card name", "3 of diamonds"),
    "4D": pgettext_lazy("card name", "4 of diamonds"),
    "5D": pgettext_lazy("card name", "5 of diamonds"),
    "6D": pgettext_lazy("card name", "6 of diamonds"),
    "7D": pgettext_lazy("card name", "7 of diamonds"),
    "8D": pgettext_lazy("card name", "8 of diamonds"),
    "9D": pgettext_lazy("card name", "9 of diamonds"),
    "TD": pgettext_lazy("card name", "10 of diamonds"),
    "JD": pgettext_lazy("card name", "jack of diamonds"),
    "QD": pgettext_lazy("card name", "queen of diamonds"),
    "KD": pgettext_lazy("card name", "king of diamonds"),
    "AH": pgettext_lazy("card name", "ace of hearts"),
    "2H": pgettext_lazy("card name", "2 of hearts"),
    "3H": pgettext_lazy("card name", "3 of hearts"),
    "4H": pgettext_lazy("card name", "4 of hearts"),
    "5H": pgettext_lazy("card name", "5 of hearts"),
    "6H": pgettext_lazy("card name", "6 of hearts"),
    "7H": pgettext_lazy("card name", "7 of hearts"),
    "8H": pgettext_lazy("card name", "8 of hearts"),
    "9H": pgettext_lazy("card name", "9 of hearts"),
    "TH": pgettext_lazy("card name", "10 of hearts"),
    "JH": pgettext_lazy("card name", "jack of hearts"),
    "QH": pgettext_lazy("card name", "queen of hearts"),
    "KH": pgettext_lazy("card name", "king of hearts"),
    "AS": pgettext_lazy("card name", "ace of spades"),
    "2S": pgettext_lazy("card name", "2 of spades"),
    "3S": pgettext_lazy("card name", "3 of spades"),
    "4S": pgettext_lazy("card name", "4 of spades"),
    "5S": pgettext_lazy("card name", "5 of spades"),
    "6S": pgettext_lazy("card name", "6 of spades"),
    "7S": pgettext_lazy("card name", "7 of spades"),
    "8S": pgettext_lazy("card name", "8 of spades"),
    "9S": pgettext_lazy("card name", "9 of spades"),
    "TS": pgettext_lazy("card name", "10 of spades"),
    "JS": pgettext_lazy("card name", "jack of spades"),
    "QS": pgettext_lazy("card name", "queen of spades"),
    "KS": pgettext_lazy("card name", "king of spades"),
}


def is_card_code(code):
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def shown_rank(code):
    """What the card's corner shows: "10" for a ten, else the rank letter."""
    return "10" if code[0] == "T" else code[0]


def suit_symbol(code):
    return SUIT_PARTS[code[1]][1]


def suit_css_name(code):
    return SUIT_PARTS[code[1]][0]


def card_name(code, language=None):
    """The card in words, in the active language (`language`, when the caller has it at hand):
    "7 of hearts", "ace of spades"."""
    return _card_name(language or get_language(), code)


@lru_cache(maxsize=52 * 8)  # a table names dozens of cards a frame: each is looked up once per language
def _card_name(_language, code):
    return str(CARD_NAMES[code])


def card_short(code):
    """The card as its corner shows it: "7♥", "10♦"."""
    return shown_rank(code) + suit_symbol(code)
