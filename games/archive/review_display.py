"""The computer's review as its page shows it: each hand's graph of chances, its decisions."""

from functools import lru_cache

from django.urls import reverse
from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.display.labels import move_html

TAG_LABELS = {"inaccuracy": _("Inaccuracy"), "mistake": _("Mistake"), "blunder": _("Blunder")}
GRAPH_WIDTH = 600
GRAPH_HEIGHT = 160
PERCENT = 100.0


def replay_url(archived, number, step, seat):
    """The match page's replay of the position a decision was made in, seen by its mover."""
    return reverse("archive:match", args=[archived.public_id]) + f"?hand={number}&step={step}&seat={seat}#replay"


def graph(chances, decisions):
    """SVG coordinates of the first seat's chance through a hand, and a mark at each tagged
    decision; `chances` are [step, chance] pairs."""
    if not chances:
        return None
    last = max(chances[-1][0], 1)

    def at(step, chance):
        return round(step / last * GRAPH_WIDTH, 1), round(GRAPH_HEIGHT - chance / PERCENT * GRAPH_HEIGHT, 1)

    by_step = dict((step, chance) for step, chance in chances)
    marks = []
    for decision in decisions:
        if decision["tag"] and decision["step"] in by_step:
            x, y = at(decision["step"], by_step[decision["step"]])
            marks.append({"x": x, "y": y, "tag": decision["tag"]})
    return {"points": " ".join("%s,%s" % at(step, chance) for step, chance in chances), "marks": marks,
            "width": GRAPH_WIDTH, "height": GRAPH_HEIGHT, "middle": GRAPH_HEIGHT / 2}


def hand_sections(archived, hands, names):
    """Each reviewed hand's section of the review page (safe HTML): its graph, its chances as a
    table, its mistakes and every decision. Built in Python, as the match page's hands are
    (games.archive.hands): through the template a long match's page named a thousand moves
    with an include each. Call inside the reader's language."""
    words = section_words(archived, names)
    return [mark_safe(hand_html(hand, words)) for hand in hands]


def section_words(archived, names):
    """What every section says, escaped, looked up once for the page."""
    escaped = [escape(name) for name in names]
    return {
        "names": escaped,
        "match_url": escape(reverse("archive:match", args=[archived.public_id])),
        "language": get_language(),
        "hand": gettext("Hand %(number)s"),
        # As blocktranslate: the values are escaped, the catalogue's own text is not.
        "caption": gettext("%(name)s's chance of winning the hand, move by move (up: %(name)s ahead); circles mark mistakes.")
        % {"name": escaped[0]},
        "as_table": escape(gettext("The chances as a table")),
        "move": escape(gettext("Move")), "player": escape(gettext("Player")), "played": escape(gettext("Played")),
        "computer": escape(gettext("The computer")), "loss": escape(gettext("Loss")),
        "step_by": gettext("move %(step)s, %(name)s:"),
        "see": escape(gettext("See the position")), "find": escape(gettext("Find a better move")),
        "would": escape(gettext("The computer would have played:")),
        "none": escape(gettext("No mistake in this hand.")), "every": escape(gettext("Every decision")),
        "tags": {tag: escape(label) for tag, label in TAG_LABELS.items()},
    }


SECTION = (
    '\n<section class="review-hand" id="hand-{number}">\n'
    "  <h2>{title}</h2>\n"
    "{graph}"
    "  {mistakes}\n"
    '  <details><summary id="decisions-{number}">{w[every]}</summary>\n'
    '    <div class="review-scroll" role="region" aria-labelledby="decisions-{number}" tabindex="0">'
    '<table class="review-decisions"><thead><tr><th scope="col">{w[move]}</th><th scope="col">{w[player]}</th>'
    '<th scope="col">{w[played]}</th><th scope="col">{w[computer]}</th><th scope="col">{w[loss]}</th></tr></thead>\n'
    "    <tbody>{rows}</tbody></table></div>\n"
    "  </details>\n"
    "</section>\n"
)
GRAPH = (
    '  <figure class="review-graph">\n'
    '    <svg viewBox="0 0 {width} {height}" role="img" aria-labelledby="graph-caption-{number}" preserveAspectRatio="none">\n'
    '      <line x1="0" y1="{middle}" x2="{width}" y2="{middle}" class="archive-chart-axis"/>\n'
    '      <polyline points="{points}" class="review-line"/>\n'
    "      {marks}\n"
    "    </svg>\n"
    '    <figcaption id="graph-caption-{number}">{w[caption]}</figcaption>\n'
    "  </figure>\n"
    '  <details class="review-text-graph"><summary id="chances-{number}">{w[as_table]}</summary>\n'
    '    <div class="review-scroll" role="region" aria-labelledby="chances-{number}" tabindex="0"><table><thead><tr>'
    '<th scope="col">{w[move]}</th><th scope="col">{w[names][0]}</th><th scope="col">{w[names][1]}</th></tr></thead>\n'
    "    <tbody>{rows}</tbody></table></div>\n"
    "  </details>\n"
)
MARK = '<circle cx="{x}" cy="{y}" r="5" class="review-mark review-{tag}"/>'
CHANCE = "<tr><td>{step}</td><td>{first}</td><td>{second}</td></tr>"
MISTAKE = (
    '\n    <li class="review-{tag}"><strong>{tag_label}</strong> · {step_by}\n'
    "      {played} (−{loss})\n"
    '      · <a href="{url}">{w[see]}</a>\n'
    "      <details><summary>{w[find]}</summary>{w[would]} {best}</details></li>\n  "
)
DECISION = '<tr{tagged}><td><a href="{url}">{step}</a></td><td>{name}</td><td>{played}</td><td>{best}</td><td>{loss}{label}</td></tr>'


def hand_html(hand, words):
    number = hand.number
    decisions = [decision_words(number, decision, words) for decision in hand.decisions]
    mistakes = "".join(MISTAKE.format(w=words, **d) for d in decisions if d["tag"])
    return SECTION.format(
        number=number, w=words, title=words["hand"] % {"number": number},
        graph=graph_html(number, hand.chances, hand.decisions, words),
        mistakes=f'<ol class="review-mistakes">{mistakes}</ol>' if mistakes else f"<p>{words['none']}</p>",
        rows="".join(DECISION.format(**d) for d in decisions),
    )


def decision_words(number, decision, words):
    """A decision's parts as its row and its mistake's line show them."""
    tag, step = decision["tag"], decision["step"]
    name = words["names"][decision["seat"]]
    label = words["tags"].get(tag, "")
    return {
        "tag": tag or "", "tagged": f' class="review-{tag}"' if tag else "", "step": step, "name": name,
        "tag_label": label, "label": f" · {label}" if tag else "",
        "url": f"{words['match_url']}?hand={number}&amp;step={step}&amp;seat={decision['seat']}#replay",
        "played": move_html(decision["played"]), "best": move_html(decision["best"]),
        "loss": localized(words["language"], decision["loss"]),
        "step_by": words["step_by"] % {"step": step, "name": name},
    }


def graph_html(number, chances, decisions, words):
    """The hand's graph and its chances as a table, or nothing for a hand with no chances."""
    shown = graph(chances, decisions)
    if shown is None:
        return ""
    language = words["language"]
    rows = "".join(CHANCE.format(step=step, first=win_rate(language, chance),
                                 second=win_rate(language, round(PERCENT - chance, 1))) for step, chance in chances)
    marks = "".join(MARK.format(**mark) for mark in shown["marks"])
    return GRAPH.format(**{**shown, "marks": marks}, number=number, w=words, rows=rows)


@lru_cache(maxsize=4096, typed=True)
def localized(_language, value):
    """A number as a template shows it in the active language (`_language`, its cache key)."""
    return formats.localize(value)


@lru_cache(maxsize=4096, typed=True)
def win_rate(_language, value):
    return escape(pgettext("win rate", "%(rate)s%%") % {"rate": formats.localize(value)})


def seat_rows(review, names):
    return [{"name": name, **seat} for name, seat in zip(names, review.seats)]


def mistakes(review):
    """(hand number, step, seat) of every tagged decision, in the order played."""
    return [(mistake["hand"], mistake["step"], mistake["seat"]) for mistake in review.mistakes]


def neighbouring_mistakes(review, number, step):
    """The tagged decisions just before and just after a replay's position, or None."""
    found = mistakes(review)
    before = [m for m in found if (m[0], m[1]) < (number, step)]
    after = [m for m in found if (m[0], m[1]) > (number, step)]
    return (before[-1] if before else None), (after[0] if after else None)


def mistake_at(review, number, step):
    """The tagged decision made at a replay's position (the move about to be played), or None."""
    found = [m for m in review.mistakes if (m["hand"], m["step"]) == (number, step)]
    return {**found[0], "tag_label": TAG_LABELS[found[0]["tag"]]} if found else None
