"""What a fair deal costs (docs/fairness.md): dealing a hand from a Deal beside random.shuffle,
and the archive's match page sections of a long match with and without each hand's deal.

    .venv/bin/python benchmarks/fairness.py [--repeats 200]

Best of `--repeats` passes, in CPU time of this process.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hollywood_site.settings")


def best_cpu(work, repeats):
    """The least CPU time of `repeats` runs of `work()`, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times) * 1000


def dealing(repeats):
    from games.engine import Deal
    from games.engine.cards import ALL_CARDS
    from games.engine.deal import new_share
    deal = Deal(new_share(), (new_share(), new_share()))
    shuffled = random.Random(1)
    print(f"a deck from a Deal: {best_cpu(deal.deck, repeats) * 1000:.1f} µs; "
          f"random.shuffle: {best_cpu(lambda: shuffled.shuffle(list(ALL_CARDS)), repeats) * 1000:.1f} µs")


def sections(repeats):
    import django
    django.setup()
    from django.utils import translation
    from games.archive.hands import hand_sections
    from games.archive.models import ArchivedMatch
    from games.archive.record import hand_rows
    from games.archive.simulate import play_match
    match = max((play_match("hollywood", 250, rng=random.Random(seed), dealt=True) for seed in range(20)),
                key=lambda match: len(match.hands))
    dealt, bare = hand_rows(ArchivedMatch(), match), hand_rows(ArchivedMatch(), match)
    for row in bare:
        row.deal = None
    with translation.override("en"):
        for label, hands in (("without deals", bare), ("with deals", dealt)):
            size = sum(len(section) for section in hand_sections(hands, ["Ana", "Ben"]))
            cost = best_cpu(lambda: hand_sections(hands, ["Ana", "Ben"]), repeats)
            print(f"match page sections, {len(hands)} hands {label}: {cost:.2f} ms, {size:,} bytes of HTML")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    arguments = parser.parse_args()
    dealing(arguments.repeats)
    sections(arguments.repeats)
