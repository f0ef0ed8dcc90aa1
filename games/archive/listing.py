"""The archive list's rows, built in Python: one string a match, as `_match_row.html` was.

At twenty rows a page the row template cost most of the page's time: three `{% url %}`,
three date filters and a dozen lookups a row through Django's template engine. Here each
row is one format, with the words the same catalogue entries (msgid and context) the
template translated, so the page reads the same in every language. Call inside the
reader's language.
"""

from functools import lru_cache
from types import SimpleNamespace

from django.urls import get_script_prefix, reverse
from django.utils import formats
from django.utils.dateformat import DateFormat
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext, pgettext

from games.archive.models import ArchivedMatch
from games.display.labels import scoring_label
from games.engine import SCORINGS, scoring_mode

# A public id (12 URL-safe characters) reversed once and replaced in each row: reverse()
# itself was a third of a row's cost.
SENTINEL = "0" * 12


@lru_cache(maxsize=None)
def url_around(name, _language, _script_prefix):
    """(before, after) the id in the URL `name` reverses to, in the language (the URL's
    prefix) and under the script prefix it is cached for."""
    before, after = reverse(name, args=[SENTINEL]).split(SENTINEL)
    return before, after


def url_for(name, public_id):
    """The URL `name` reverses to for `public_id`, as {% url name public_id %} gives it, without
    a reverse() each: a player page links fifty matches and opponents."""
    return url_with(url_around(name, get_language(), get_script_prefix()), public_id)


def url_with(around, public_id):
    before, after = around
    return f"{before}{public_id}{after}"


ROW = (
    '<li class="archive-match">\n'
    '  <a class="archive-match-link" href="{match_url}">\n'
    '    <time datetime="{iso}">{short} {zone}</time>\n'
    '    <span class="archive-mode">{mode}</span>\n'
    "  </a>\n"
    '  <span class="archive-players">\n'
    '    <a href="{url0}"{winner0}>{name0}</a>\n'
    '    <span class="archive-totals">{total0} – {total1}</span>\n'
    '    <a href="{url1}"{winner1}>{name1}</a>\n'
    "  </span>\n"
    "  \n"
    '  <span class="archive-result">{result}</span>\n'
    "</li>\n"
)
WINNER = ' class="archive-winner"'


def match_rows(matches):
    """Each match of a list page as its row's HTML (safe: every value is escaped)."""
    words = page_words(get_language(), get_script_prefix())
    return [match_row(match, words) for match in matches]


@lru_cache(maxsize=None)
def page_words(language, script_prefix):
    """What every row of a page in `language` shares, looked up once (Django finds the
    active language anew at every lookup, and a row made a dozen): the URLs around an id,
    the date format, the labels and the sentences' patterns. Call inside `language`."""
    return SimpleNamespace(
        match_url=url_around("archive:match", language, script_prefix),
        player_url=url_around("archive:player", language, script_prefix),
        short_format=formats.get_format("SHORT_DATETIME_FORMAT"),
        modes={name: escape(scoring_label(name)) for name in SCORINGS},
        target=pgettext("match target", "to %(target)s"),
        # How a match ended early, by its `ending`; a match played out (PLAYED) has none.
        early={
            ArchivedMatch.RESIGNED: gettext("%(winner)s won: %(loser)s resigned"),
            ArchivedMatch.LEFT: gettext("%(winner)s won: %(loser)s left the table"),
        },
        won=gettext("%(name)s won"),
    )


def match_row(match, words):
    finished = DateFormat(template_localtime(match.finished_at))
    names = (escape(match.player0.name), escape(match.player1.name))
    return mark_safe(ROW.format(
        match_url=url_with(words.match_url, match.public_id),
        iso=conditional_escape(finished.format("c")),
        short=conditional_escape(finished.format(words.short_format)),
        zone=conditional_escape(finished.format("T")),
        mode=mode_text(match, words),
        url0=url_with(words.player_url, match.player0.public_id),
        url1=url_with(words.player_url, match.player1.public_id),
        winner0=WINNER if match.winner_seat == 0 else "",
        winner1=WINNER if match.winner_seat == 1 else "",
        name0=names[0], name1=names[1],
        total0=match.total0, total1=match.total1,
        result=result_text(match, names, words),
    ))


def mode_text(match, words):
    text = words.modes[match.scoring]
    if scoring_mode(match.scoring).has_target:
        text += " · " + words.target % {"target": match.target}
    return text


def result_text(match, names, words):
    """"Ana won (2–1)", or how a match ended early: "Ana won: Ben resigned"."""
    winner, loser = (names[0], names[1]) if match.winner_seat == 0 else (names[1], names[0])
    early = words.early.get(match.ending)
    if early:
        return early % {"winner": winner, "loser": loser}
    text = words.won % {"name": winner}
    if scoring_mode(match.scoring).games > 1:
        text += f" ({match.games_won0}–{match.games_won1})"
    return text
