"""Cards drawn from a card code, no image files: the one way a card is drawn on the site.

    {% load cards %}
    {% card "7H" %}                                    one card, a picture
    {% card "7H" move="discard 7H" label=text %}       a card that plays a move when pressed
    {% card "7H" classes="deadwood" %}                 with extra classes for its role
    {% card "7H" refusal=text label=name %}            a card that says why it cannot be played
    {% card "7H" move="discard 7H" after=12 %}         with the deadwood its discard would leave
    {% cards "5S 6S 7S" %}                             several side by side (a list works too)
    {% card_backs 10 classes="small" %}                so many cards face down

The picture shows the rank and suit in two corners and a large suit in the middle, like a
printed card; screen readers get the card's name instead ("7 of hearts"), or `label` for
a card that is a button (which should start with the corner's text, "7♥: …", so the
name a voice user says is the one they see).
"""

from functools import lru_cache

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.display.cards import card_name, card_short, is_card_code, shown_rank, suit_css_name, suit_symbol
from games.engine.cards import RANK_VALUES, RANKS

register = template.Library()


@register.simple_tag
def card(code, move=None, label=None, classes="", refusal=None, after=None):
    check_code(code)
    # Built as format_html would build it, each value escaped, in an f-string: a table draws
    # dozens of cards a move (docs/performance.md). The code is checked, so it needs no escaping.
    # A card button has no type: none is in a form, where a button would submit it.
    if refusal:
        # Pressable, so it can say why not: a card that silently does nothing reads as broken.
        return mark_safe(
            f'<button class="{conditional_escape(card_classes(code, classes))}" id="card-{code}" data-card="{code}" '
            f'data-refusal="{conditional_escape(refusal)}" aria-disabled="true" '
            f'aria-label="{conditional_escape(label or card_name(code))}">{card_face(code)}</button>')
    if move:
        # The deadwood this discard would leave, in a chip at the card's lower left, drawn by
        # table.css from data-face: as text it would join the corner in the card's text
        # ("7♥58"), which its name then would not hold (axe: label-content-name-mismatch).
        chip = f'<i data-face="{conditional_escape(after)}"></i>' if after is not None else ""
        return mark_safe(
            f'<button class="{conditional_escape(card_classes(code, classes))}" id="card-{code}" '
            f'data-move="{conditional_escape(move)}" data-card="{code}" data-value="{card_value(code)}" '
            f'aria-label="{conditional_escape(label or card_name(code))}">{card_face(code)}{chip}</button>')
    return picture(get_language(), code, classes)


def check_code(code):
    if not is_card_code(code):
        raise template.TemplateSyntaxError(f"Not a card code: {code!r}")


# A long match in the archive shows hundreds of cards: each is built once per language.
@lru_cache(maxsize=52 * 8 * 4)
def picture(_language, code, classes):
    # No data-value: only the hand's buttons are read for it.
    return format_html(
        '<span class="{}" data-card="{}" role="img" aria-label="{}">{}</span>',
        card_classes(code, classes), code, card_name(code), card_face(code),
    )


def card_value(code):
    """What the card counts as deadwood (data-value: for scripts that read a hand's buttons)."""
    return RANK_VALUES[RANKS.index(code[0])]


def card_classes(code, classes):
    # The colour comes from the suit's class (site.css, table.css): no class of its own.
    return f"card card--{suit_css_name(code)} {classes}".strip()


@lru_cache(maxsize=52)
def card_face(code):
    # The text is the top corner alone ("7♥", what a voice user says); the large pip (from
    # the suit's class) and the turned corner (from data-face) are drawn by table.css. No
    # aria-hidden inside: a card is an image or a button, named by its aria-label, and
    # neither lets its children speak. Every card a frame carries has this face, so it is
    # kept short (a hand of eleven is most of a move's frame): the corner is the first <b>,
    # its suit the <i> in it, the turned corner the second <b> (styled by tag in table.css).
    return format_html(
        '<b>{}<i>{}</i></b><b data-face="{}"></b>',
        shown_rank(code), suit_symbol(code), card_short(code),
    )


register.filter("card_short", card_short)


@register.simple_tag
def cards(codes, classes=""):
    return pictures(codes, classes, get_language())


def pictures(codes, classes, language):
    """Cards side by side (`{% cards %}`), in `language`, the active one: a caller drawing many
    groups asks for it once (Django finds the active language anew at every lookup)."""
    if isinstance(codes, str):
        codes = codes.split()
    for code in codes:
        check_code(code)
    # Each card is safe HTML built from a checked code, so the joined whole is too.
    return mark_safe('<span class="cards">' + "".join(picture(language, code, classes) for code in codes) + "</span>")


@register.simple_tag
def card_backs(count, classes=""):
    # A hand face down says nothing a screen reader needs: the count beside it does.
    back = format_html('<span class="{}" aria-hidden="true"></span>', f"card back {classes}".strip())
    return mark_safe(back * count)
