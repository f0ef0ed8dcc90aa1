"""Words for the engine's codes in templates (games.display.labels).

    {% load labels %}
    {{ match.scoring|scoring_label }}   {{ hand.kind|hand_kind_label }}
    {{ move|move_html }}                 "discards" and the card's picture
    {% scoring_choices as choices %}
    data-forms="{% unread_forms %}"      the chat badge's words for each count, as JSON
"""

import json

from django import template
from django.conf import settings

from games.display import labels

register = template.Library()


@register.filter
def scoring_label(name):
    return labels.scoring_label(name)


@register.filter
def hand_kind_label(kind):
    return labels.HAND_KIND_LABELS[kind]


register.filter("move_html", labels.move_html)


@register.filter
def computer_level_label(level):
    return labels.COMPUTER_LEVEL_LABELS[level]


@register.simple_tag
def computer_levels():
    return list(labels.COMPUTER_LEVEL_LABELS.items())


@register.simple_tag
def clock_choices():
    return labels.clock_choices()


@register.simple_tag
def pace_choices():
    return labels.pace_choices()


@register.simple_tag
def pace_bank_hours():
    return settings.GAMES_PACE_BANK_HOURS


@register.simple_tag
def clock_bank():
    return settings.GAMES_CLOCK_BANK_SECONDS


@register.simple_tag
def scoring_choices():
    return labels.scoring_choices()


@register.simple_tag
def unread_forms():
    return json.dumps(labels.unread_forms(), ensure_ascii=False)
