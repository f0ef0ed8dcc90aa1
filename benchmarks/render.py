"""What the browser path's HTML costs in one process, and Django's template engine beside Jinja2.

    python benchmarks/render.py                 # from the project root; Jinja2 beside Django's
    python benchmarks/render.py --states 1200   # engine when importable (pip install jinja2==3.1.6)

Two seeded Hollywood tables are played in this process by load.py's player (knock when
allowed, else draw, else the best discard) until they have `--states` states between them. Each
state is then drawn for both seats as their pages' sockets draw it (games.live.render.LiveView:
the view, then the fragments changed since the seat's last frame, or the whole table when a
fragment comes or goes), with the fragment cache as the server keeps it. Printed: CPU a state
(both seats) in its three parts, the frames' sizes and how many were the whole table, each
fragment's share, and the three fragments that cost most rendered by Django's engine and by
Jinja2 on the same contexts (the templates rewritten for Jinja2 here, markup unchanged). The
best of `--repeats` passes counts: other processes only ever slow a pass down.
"""

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp()) / 'render.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hollywood_site.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.template import Context  # noqa: E402
from django.utils import translation  # noqa: E402
from django.utils.safestring import mark_safe  # noqa: E402

from benchmarks.load import choose  # noqa: E402
from games.live import drawn, render  # noqa: E402
from games.live.batch import send_now
from games.live.commands import Play, PressNextHand, Sit
from games.live.opening import open_table  # noqa: E402
from games.live.tables import live_tables  # noqa: E402
from games.templatetags.cards import card, card_short  # noqa: E402

SEEDS = ("render-1", "render-2")

# The costliest fragments, as Jinja2 templates: the same markup as templates/games/live/'s.
JINJA2 = {
    "hand-cards": """<div class="groups" id="hand-cards">
{% for group in live.groups %}
<div class="group {{ group.kind }}">
{% if group.kind == "meld" %}<span class="group-label">{{ pgettext("gin rummy", "Meld") }}</span>{% elif group.kind == "deadwood" %}<span class="group-label">{{ pgettext("gin rummy", "Deadwood") }}</span>{% endif %}
<div class="group-cards">
{{ group_cards(group.cards) }}
</div>
</div>
{% endfor %}
</div>""",
    "hand-moves": """<ol class="moves" id="hand-moves"{% if live.after %} data-append="{{ live.after }}"{% endif %}>"""
                  """{% for line in live.moves %}<li>{{ line }}</li>{% endfor %}</ol>""",
    "discard-pile": """
<div class="pile discard" id="discard-pile">
    <div class="pile-fan" id="pile-fan">
    {% if live.knock_card %}
      {% for code in (live.pile[:3])|reverse %}{{ card(code, classes="under") }}{% endfor %}
      <span class="card back top knock-card" id="knock-card" role="img" aria-label="{{ gettext('The knock card, face down: the %(card)s', card=live.knock_card_name) }}"></span>
    {% else %}
    {% for code in (live.pile[1:4])|reverse %}{{ card(code, classes="under") }}{% endfor %}
    {% if live.discard_top %}
      {% if "pile" in live.draws %}{{ card(live.discard_top, move="pile", label=gettext("%(short)s: take the %(card)s", short=card_short(live.discard_top), card=live.discard_top_name), classes="top") }}
      {% else %}{{ card(live.discard_top, classes="top") }}{% endif %}
    {% else %}<span class="card empty-pile" role="img" aria-label="{{ gettext('The discard pile is empty') }}"><span class="empty-word" aria-hidden="true">{{ pgettext("discard pile", "empty") }}</span></span>{% endif %}
    {% endif %}
    </div>
    <span class="pile-count">{{ gettext("Discard pile") }}</span>
  </div>""",
}


TEMPLATES = {fragment: template for fragment, template, _ in render.FRAGMENTS}


def played_states(seed, wanted):
    """The snapshots of one table played from its deal, a state each until `wanted`."""
    code = open_table("Ana", scoring="hollywood", deal_seed=seed).table.code
    send_now(code, Sit("Ben")).answer
    snapshots = []
    while len(snapshots) < wanted:
        snapshot = live_tables.owner(code).snapshot
        snapshots.append(snapshot)
        state = snapshot.state_for(0)
        if state["match_over"]:
            break
        if state["hand_result"] is not None:
            send_now(code, PressNextHand(0))
            send_now(code, PressNextHand(1))
            continue
        mover = state["to_move"]
        send_now(code, Play(mover, choose(snapshot.state_for(mover)), state["version"]))
    return snapshots


class Pass:
    """One pass over the states, both seats, timed in its parts (seconds of CPU)."""

    def __init__(self, snapshots):
        render.RENDERED.clear()
        self.view = self.frame = self.whole = 0.0
        self.sizes, self.whole_sizes, self.contexts = [], [], collections.defaultdict(list)
        self.frames = {0: [], 1: []}  # each seat's frames' HTML, in order
        shown = {0: None, 1: None}
        for snapshot in snapshots:
            for seat in shown:
                started = time.process_time()
                view = render.LiveView(snapshot.state_for(seat))
                viewed = time.process_time()
                html = view.frame(shown[seat])
                framed = time.process_time()
                self.view += viewed - started
                self.frame += framed - viewed
                if html is None:
                    html = view.whole()
                    self.whole += time.process_time() - framed
                    self.whole_sizes.append(len(html))
                self.sizes.append(len(html))
                self.frames[seat].append(html)
                for fragment in JINJA2:
                    if fragment in view.contexts and view.keys[fragment] != (shown[seat] or {}).get(fragment):
                        self.contexts[fragment].append(view.contexts[fragment][1])
                shown[seat] = view.keys

    @property
    def total(self):
        return self.view + self.frame + self.whole


def fragment_shares(snapshots):
    """CPU each fragment's first render takes over a pass, the cache cleared first."""
    spent, renders = collections.Counter(), collections.Counter()
    html = render.LiveView.html

    def timed(view, fragment, after=0):
        fresh = (fragment, view.language, view.keys[fragment], after) not in render.RENDERED
        started = time.process_time()
        result = html(view, fragment, after)
        if fresh:
            spent[fragment] += time.process_time() - started
            renders[fragment] += 1
        return result

    render.LiveView.html = timed
    try:
        Pass(snapshots)
    finally:
        render.LiveView.html = html
    return spent, renders


def deflate_costs(frames, level, repeats):
    """(µs of CPU a frame, deflated bytes a frame) of each seat's frames compressed in order as
    permessage-deflate sends them: one stream a socket, its context kept from frame to frame,
    with uvicorn's window (12 bits) and memory level (5), at zlib's `level`."""
    texts = [[html.encode() for html in seat_frames] for seat_frames in frames.values()]
    count = sum(len(seat_frames) for seat_frames in texts)

    def compress_all():
        sizes = 0
        for seat_frames in texts:
            stream = zlib.compressobj(level, zlib.DEFLATED, -12, 5)
            for text in seat_frames:
                sizes += len(stream.compress(text)) + len(stream.flush(zlib.Z_SYNC_FLUSH))
        return sizes

    size = compress_all()
    return 1e6 * best(repeats, compress_all) / count, size / count


def jinja2_environment():
    try:
        import jinja2
    except ImportError:
        return None
    environment = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    environment.install_gettext_callables(gettext=translation.gettext, ngettext=translation.ngettext,
                                          pgettext=translation.pgettext, newstyle=True)
    environment.globals.update(card=card, card_short=card_short, group_cards=lambda cards: mark_safe(
        drawn.group_cards(cards, translation.get_language())))
    return environment


def best(repeats, work):
    times = []
    for _ in range(repeats):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def compare_engines(contexts, repeats):
    environment = jinja2_environment()
    if environment is None:
        print("Jinja2 is not importable: pip install jinja2==3.1.6 to compare the engines")
        return
    print("the costliest fragments, each rendered anew on the same contexts (µs a render, best pass):")
    for fragment, source in JINJA2.items():
        items = contexts[fragment]
        django_template = render.fragment_template(TEMPLATES[fragment])
        jinja_template = environment.from_string(source)
        same = all(" ".join(django_template.render(Context({"live": live})).split())
                   == " ".join(jinja_template.render(live=live).split()) for live in items)
        django_seconds = best(repeats, lambda: [django_template.render(Context({"live": live})) for live in items])
        jinja_seconds = best(repeats, lambda: [jinja_template.render(live=live) for live in items])
        print(f"  {fragment:13s} {len(items):5d} renders  Django {1e6 * django_seconds / len(items):6.1f}  "
              f"Jinja2 {1e6 * jinja_seconds / len(items):6.1f}  ratio ×{django_seconds / jinja_seconds:.2f}"
              f"{'' if same else '  (the markup differs: not comparable)'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=600, help="states over the two tables (default 600)")
    parser.add_argument("--repeats", type=int, default=5, help="passes; the best counts (default 5)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    translation.activate("en")
    snapshots = [s for seed in SEEDS for s in played_states(seed, args.states // len(SEEDS))]
    passes = [Pass(snapshots) for _ in range(args.repeats)]
    fastest = min(passes, key=lambda p: p.total)
    per_state = lambda seconds: 1000 * seconds / len(snapshots)  # noqa: E731
    print(f"{len(snapshots)} states, both seats' frames: {per_state(fastest.total):.3f} ms of CPU a state "
          f"(view {per_state(fastest.view):.3f}, changed fragments {per_state(fastest.frame):.3f}, "
          f"whole table {per_state(fastest.whole):.3f}), best of {args.repeats}")
    sizes = fastest.sizes
    print(f"frames: median {statistics.median(sizes):.0f} B, mean {statistics.mean(sizes):.0f} B, "
          f"over 4 KB {sum(size > 4096 for size in sizes)} of {len(sizes)}; the whole table {len(fastest.whole_sizes)} "
          f"times (mean {statistics.mean(fastest.whole_sizes or [0]):.0f} B, "
          f"{100 * sum(fastest.whole_sizes) / sum(sizes):.0f}% of the bytes)")
    print("the frames deflated as a page's socket sends them (µs of CPU a frame, bytes a frame):")
    for level, name in ((zlib.Z_DEFAULT_COMPRESSION, "zlib's default (6)"), (1, "level 1")):
        micros, size = deflate_costs(fastest.frames, level, args.repeats)
        print(f"  {name:20s} {micros:6.1f} µs  {size:6.0f} B")
    spent, renders = fragment_shares(snapshots)
    print("each fragment's renders (CPU a state, renders, µs a render):")
    for fragment, seconds in spent.most_common():
        print(f"  {fragment:15s} {per_state(seconds):.3f} ms  {renders[fragment]:5d}  {1e6 * seconds / renders[fragment]:7.1f}")
    compare_engines(fastest.contexts, args.repeats)


if __name__ == "__main__":
    main()
