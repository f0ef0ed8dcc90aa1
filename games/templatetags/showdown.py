"""A hand's showdown in a template, drawn by games.display.showdown.showdown_html.

    {% load showdown %}
    {% showdown_html live.showdown hide_outcome=True %}
"""

from django import template

from games.display import showdown

register = template.Library()


@register.simple_tag
def showdown_html(shown, hide_outcome=False):
    return showdown.showdown_html(shown, hide_outcome)
