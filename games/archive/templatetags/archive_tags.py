"""Cards drawn from rank and suit in HTML (no artwork, no licence), for the archive."""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext

register = template.Library()

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = "DH"


def suit_name(suit):
    return {
        "C": pgettext("card suit", "clubs"),
        "D": pgettext("card suit", "diamonds"),
        "H": pgettext("card suit", "hearts"),
        "S": pgettext("card suit", "spades"),
    }[suit]


def rank_name(rank):
    names = {
        "A": pgettext("card rank", "Ace"),
        "T": "10",
        "J": pgettext("card rank", "Jack"),
        "Q": pgettext("card rank", "Queen"),
        "K": pgettext("card rank", "King"),
    }
    return names.get(rank, rank)


@register.simple_tag
def card(code):
    """One card, e.g. "TH" → a red "10♥" labelled "10 of hearts" in the page language."""
    return card_html(get_language(), code)


# A long match shows hundreds of cards: each of the 52 is built once per language.
@lru_cache(maxsize=52 * 8)
def card_html(_language, code):
    rank, suit = code[0], code[1]
    label = pgettext("a card, e.g. 7 of hearts", "%(rank)s of %(suit)s") % {
        "rank": rank_name(rank),
        "suit": suit_name(suit),
    }
    colour = "red" if suit in RED_SUITS else "black"
    shown = "10" if rank == "T" else rank
    return format_html(
        '<span class="acard acard-{}" role="img" aria-label="{}">{}{}</span>',
        colour, label, shown, SUIT_SYMBOLS[suit],
    )


@register.simple_tag
def cards(codes):
    # Each card is already safe HTML built from a fixed code; joining keeps it safe.
    return mark_safe('<span class="acards">' + "".join(card(code) for code in codes) + "</span>")
