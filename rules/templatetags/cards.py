"""Small card pictures drawn from a card code ("7H", "TD", "AS"), no image files.

    {% load cards %}
    {% card "7H" %}          one card
    {% cards "5S 6S 7S" %}   several, side by side

The picture shows the rank and the suit symbol; screen readers get a translated
label instead ("7 of hearts"), so the symbols are hidden from them.
"""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import pgettext, pgettext_lazy

register = template.Library()

# Rank letter → (what the card shows, what a screen reader says).
RANKS = {
    "A": ("A", pgettext_lazy("card rank", "ace")),
    "T": ("10", "10"),
    "J": ("J", pgettext_lazy("card rank", "jack")),
    "Q": ("Q", pgettext_lazy("card rank", "queen")),
    "K": ("K", pgettext_lazy("card rank", "king")),
    **{str(pips): (str(pips), str(pips)) for pips in range(2, 10)},
}

# Suit letter → (CSS name, symbol, what a screen reader says).
SUITS = {
    "C": ("clubs", "♣", pgettext_lazy("card suit", "clubs")),
    "D": ("diamonds", "♦", pgettext_lazy("card suit", "diamonds")),
    "H": ("hearts", "♥", pgettext_lazy("card suit", "hearts")),
    "S": ("spades", "♠", pgettext_lazy("card suit", "spades")),
}


def card_parts(code):
    """Split a card code into its rank and suit entries; a bad code is a template bug."""
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise template.TemplateSyntaxError(f"Not a card code: {code!r}")
    return RANKS[code[0]], SUITS[code[1]]


def card_label(code):
    (_shown, rank_name), (_css, _symbol, suit_name) = card_parts(code)
    return pgettext("card name", "%(rank)s of %(suit)s") % {"rank": rank_name, "suit": suit_name}


@register.simple_tag
def card(code):
    (shown, _rank_name), (css_name, symbol, _suit_name) = card_parts(code)
    return format_html(
        '<span class="card card--{}" role="img" aria-label="{}">'
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span></span>',
        css_name, card_label(code), shown, symbol,
    )


@register.simple_tag
def cards(codes):
    return format_html(
        '<span class="cards">{}</span>',
        format_html_join("", "{}", ((card(code),) for code in codes.split())),
    )
