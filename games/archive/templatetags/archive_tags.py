"""Cards drawn from rank and suit in HTML (no artwork, no licence), for the archive."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import pgettext

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
    return format_html('<span class="acards">{}</span>', format_html_join("", "{}", ((card(c),) for c in codes)))
