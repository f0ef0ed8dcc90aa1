"""A match page's hands, each section built in Python as match.html's loop drew it.

A long match (thirty hands and more at a million matches) spent most of its page in that
loop: two translations, a label, four names and two links a hand through Django's
template engine. The words are the same catalogue entries the template translated. Call
inside the reader's language.
"""

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.display.labels import HAND_KIND_LABELS
from games.display.showdown import showdown, showdown_html

SECTION = (
    '\n<section class="archive-hand" id="hand-{number}">\n'
    "  <h3>{title}\n"
    "    {kind}{winner}</h3>\n"
    '  <p class="archive-meta">{dealt}\n'
    "    {replay}\n"
    '    <a href="?hand={number}&amp;step=0&amp;seat=0#replay">{name0}</a> ·\n'
    '    <a href="?hand={number}&amp;step=0&amp;seat=1#replay">{name1}</a></p>\n'
    '  <div class="archive-showdown">{showdown}</div>\n'
    "{deal}"
    "</section>\n"
)

DEAL = (
    '  <details class="archive-deal">\n'
    "    <summary>{title}</summary>\n"
    "    <dl>\n"
    "      <dt>{commitment_term}</dt><dd><code>{commitment}</code></dd>\n"
    "      <dt>{seed_term}</dt><dd><code>{seed}</code></dd>\n"
    "{contributions}"
    "      <dt>{deck_term}</dt><dd><code>{deck}</code></dd>\n"
    "    </dl>\n"
    '    <p><a href="{fair_url}">{fair}</a></p>\n'
    "  </details>\n"
)
CONTRIBUTION = "      <dt>{term}</dt><dd><code>{share}</code>{supplied}</dd>\n"


def hand_sections(hands, names):
    """Each stored hand's section (safe HTML): its title, who dealt, the replay links, its showdown."""
    escaped = [escape(name) for name in names]
    # Each word looked up once for the page, not once a hand.
    replay = escape(gettext("Replay from the side of"))
    title, dealt = gettext("Hand %(number)s:"), gettext("%(name)s dealt.")
    kinds = {kind: escape(label) for kind, label in HAND_KIND_LABELS.items()}
    words = deal_words(escaped)
    return [mark_safe(SECTION.format(
        number=hand.number,
        # As blocktranslate: the values are escaped, the catalogue's own text is not.
        title=title % {"number": hand.number},
        kind=kinds[hand.kind],
        winner=f" · {escaped[hand.winner]} +{hand.points}" if hand.winner is not None else "",
        dealt=dealt % {"name": escaped[hand.dealer]},
        replay=replay, name0=escaped[0], name1=escaped[1],
        showdown=showdown_html(showdown(hand.result, names)),
        deal=deal_html(hand, words),
    )) for hand in hands]


def deal_words(escaped_names):
    """The deal's words, escaped, looked up once for the page."""
    return {
        "title": escape(gettext("How this hand was dealt")),
        "commitment_term": escape(gettext("Commitment, shown before the deal")),
        "seed_term": escape(gettext("Server seed, revealed after the hand")),
        # As blocktranslate: the names are escaped, the catalogue's own text is not.
        "contribution_terms": [gettext("Added by %(name)s") % {"name": name} for name in escaped_names],
        "supplied": escape(gettext("(none came: the server supplied it)")),
        "deck_term": escape(gettext("The deck, top card first")),
        "fair": escape(gettext("How is this fair?")),
        "fair_url": reverse("rules:fairness"),
    }


def deal_html(hand, words):
    """The hand's deal as the archive shows it (nothing for a hand dealt before deals were kept)."""
    if not hand.deal:
        return ""
    contributions = "".join(
        CONTRIBUTION.format(term=term, share=escape(share), supplied=f" {words['supplied']}" if supplied else "")
        for term, share, supplied in zip(words["contribution_terms"], hand.deal["contributions"], hand.deal["supplied"], strict=True)
    )
    return DEAL.format(commitment=escape(hand.deal["commitment"]), seed=escape(hand.deal["seed"]),
                       contributions=contributions, deck=escape(" ".join(hand.deck)), **words)
