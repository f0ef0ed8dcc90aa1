"""A score sheet's rows in a template, drawn by games.display.sheet.rows_html.

    {% load sheet %}
    {% sheet_rows score_sheet link_hands %}
"""

from django import template

from games.display import sheet

register = template.Library()


@register.simple_tag
def sheet_rows(laid_out, link_hands=False):
    return sheet.rows_html(laid_out, link_hands)
