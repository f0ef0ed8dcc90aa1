"""A match page's hands, each section built in Python as match.html's loop drew it.

A long match (thirty hands and more at a million matches) spent most of its page in that
loop: two translations, a label, four names and two links a hand through Django's
template engine. The words are the same catalogue entries the template translated. Call
inside the reader's language.
"""

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
    "</section>\n"
)


def hand_sections(hands, names):
    """Each stored hand's section (safe HTML): its title, who dealt, the replay links, its showdown."""
    escaped = [escape(name) for name in names]
    # Each word looked up once for the page, not once a hand.
    replay = escape(gettext("Replay from the side of"))
    title, dealt = gettext("Hand %(number)s:"), gettext("%(name)s dealt.")
    kinds = {kind: escape(label) for kind, label in HAND_KIND_LABELS.items()}
    return [mark_safe(SECTION.format(
        number=hand.number,
        # As blocktranslate: the values are escaped, the catalogue's own text is not.
        title=title % {"number": hand.number},
        kind=kinds[hand.kind],
        winner=f" · {escaped[hand.winner]} +{hand.points}" if hand.winner is not None else "",
        dealt=dealt % {"name": escaped[hand.dealer]},
        replay=replay, name0=escaped[0], name1=escaped[1],
        showdown=showdown_html(showdown(hand.result, names)),
    )) for hand in hands]
