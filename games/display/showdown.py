"""A hand's end in words and pictures, the same at the table and in the archive.

Both read the engine's result in its protocol shape (`HandResult.to_dict()`: the live
state's `hand_result`, and what the archive stores), and draw it with `showdown_html`
(in a template, `{% showdown_html %}` from games.templatetags.showdown). Call inside the
reader's language.
"""

from functools import lru_cache
from types import SimpleNamespace

from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.templatetags.cards import pictures

SEATS = (0, 1)


# A long match's archive page draws dozens of showdowns, each asking for a dozen words:
# looked up once per language (Django finds the active language anew at every lookup,
# which was a third of a showdown's time). Call with the active language.
@lru_cache(maxsize=16)
def words(_language):
    return SimpleNamespace(
        gin=format_html(' <span class="knocker">{}</span>', pgettext("showdown badge", "gin")),
        knocked=format_html(' <span class="knocker">{}</span>', pgettext("gin rummy", "knocked")),
        deadwood=escape(pgettext("gin rummy", "Deadwood")),
        laid_off=escape(pgettext("gin rummy", "Laid off")),
        deadwood_points=gettext("deadwood %(points)s"),
        outcome={
            "draw": gettext("No winner: only two cards were left in the stock. The same dealer deals again."),
            "gin": gettext("%(knocker)s went gin: gin bonus 25 + %(defender)s’s deadwood %(defender_deadwood)s = %(points)s"),
            "undercut": gettext("%(defender)s undercut %(knocker)s: undercut bonus 25 + the difference in deadwood %(difference)s = %(points)s"),
            "knock": gettext("%(knocker)s knocked and beat %(defender)s: deadwood %(defender_deadwood)s − %(knocker_deadwood)s = %(points)s"),
        },
    )


@lru_cache(maxsize=64)
def layoff_note(_language, count):
    # As blocktranslate: the numbers go in, the catalogue's own text is not escaped.
    return '<p class="layoff-note">{}</p>'.format(ngettext(
        "laid off %(cards)s card on the knocker’s melds", "laid off %(cards)s cards on the knocker’s melds", count,
    ) % {"cards": count})


def showdown(result, names):
    """Both hands as the engine arranged them, and the outcome in one sentence."""
    return {
        "kind": result["kind"],
        "sentence": outcome_sentence(result, names),
        "players": [side(result, seat, names) for seat in SEATS],
    }


def side(result, seat, names):
    """One hand at the showdown. Each meld carries the cards the other player laid off on
    it (they are shown where they went, on the knocker's meld); `layoffs` counts this
    player's own laid-off cards for a note in their row."""
    shown = result["players"][seat]
    other = result["players"][1 - seat]
    return {
        "seat": seat,
        "name": names[seat],
        "knocker": result["knocker"] == seat and result["kind"] != "draw",
        "gin": result["knocker"] == seat and result["kind"] == "gin",
        "melds": [{"cards": meld, "laid_off": [layoff["card"] for layoff in other["layoffs"] if layoff["meld"] == index]}
                  for index, meld in enumerate(shown["melds"])],
        "layoffs": [layoff["card"] for layoff in shown["layoffs"]],
        "deadwood": shown["deadwood"],
        "deadwood_points": shown["deadwood_points"],
    }


def outcome_sentence(result, names):
    kind = result["kind"]
    template = words(get_language()).outcome[kind]
    if kind == "draw":
        return template
    knocker = result["knocker"]
    defender = 1 - knocker
    knocker_points = result["players"][knocker]["deadwood_points"]
    defender_points = result["players"][defender]["deadwood_points"]
    return template % {
        "knocker": names[knocker], "defender": names[defender], "points": result["points"],
        "knocker_deadwood": knocker_points, "defender_deadwood": defender_points,
        "difference": knocker_points - defender_points,
    }


def showdown_html(shown, hide_outcome=False):
    """`shown` (what `showdown` returns) as HTML: both hands, their melds, lay-offs and
    deadwood, and the outcome unless `hide_outcome`. Built in Python, not by an included
    template: a long match's archive page draws a dozen showdowns, and Django's template
    engine spent most of that page's time on them. Call inside the reader's language."""
    outcome = "" if hide_outcome else format_html('<p class="outcome">{}</p>', shown["sentence"])
    language = get_language()
    hands = "".join(hand_html(player, language) for player in shown["players"])
    return mark_safe(f'\n{outcome}\n<div class="showdown-hands">\n{hands}\n</div>\n')


def hand_html(player, language):
    said = words(language)
    badge = said.gin if player["gin"] else said.knocked if player["knocker"] else ""
    melds = "".join(meld_html(meld, said, language) for meld in player["melds"])
    deadwood = ""
    if player["deadwood"]:
        deadwood = (f'<div class="group deadwood"><span class="group-label">{said.deadwood}</span>'
                    f'{pictures(player["deadwood"], "deadwood", language)}</div>')
    note = layoff_note(language, len(player["layoffs"])) if player["layoffs"] else ""
    points = said.deadwood_points % {"points": player["deadwood_points"]}
    return (
        f'\n  <div class="shown-hand" data-seat="{player["seat"]}">\n'
        f'    <h3>{escape(player["name"])}{badge}</h3>\n'
        '    <div class="groups">\n'
        f"      {melds}\n"
        f"      {deadwood}\n"
        "    </div>\n"
        f"    {note}\n"
        f'    <p class="deadwood-count">{points}</p>\n'
        "  </div>\n"
    )


def meld_html(meld, said, language):
    laid_off = ""
    if meld["laid_off"]:
        laid_off = (f'<span class="laid-off"><span class="group-label">{said.laid_off}</span>'
                    f'{pictures(meld["laid_off"], "laid-off", language)}</span>')
    return f'<div class="group meld">{pictures(meld["cards"], "", language)}{laid_off}</div>'
