"""Small card pictures drawn from a card code, no image files.

    {% load cards %}
    {% card "7H" %}          one card
    {% cards "5S 6S 7S" %}   several side by side (a list of codes works too)

The picture shows the rank and the suit symbol; screen readers get the card's name
instead ("7 of hearts"), so the symbols are hidden from them.
"""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.cards import card_name, is_card_code, shown_rank, suit_css_name, suit_symbol

register = template.Library()


@register.simple_tag
def card(code):
    if not is_card_code(code):
        raise template.TemplateSyntaxError(f"Not a card code: {code!r}")
    return card_html(get_language(), code)


# A long match in the archive shows hundreds of cards: each is built once per language.
@lru_cache(maxsize=52 * 8)
def card_html(_language, code):
    return format_html(
        '<span class="card card--{}" role="img" aria-label="{}">'
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span></span>',
        suit_css_name(code), card_name(code), shown_rank(code), suit_symbol(code),
    )


@register.simple_tag
def cards(codes):
    if isinstance(codes, str):
        codes = codes.split()
    # Each card is safe HTML built from a checked code, so the joined whole is too.
    return mark_safe('<span class="cards">' + "".join(card(code) for code in codes) + "</span>")
