"""Microseconds per hand for the engine's solver, and RLCard's on the same hands if installed.

    python benchmarks/engine.py            # from the project root, any Python 3.11 with or
                                           # without rlcard (pip install rlcard==1.2.0)

(a) the least deadwood of a 10-card hand, (b) the legal knocks of an 11-card hand (the least
deadwood after every discard), (c) a whole showdown with lay-offs; each on random hands and on
meld-rich hands (dealt from five neighbouring ranks, so most cards can meld).
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import ALL_CARDS, mask_of  # noqa: E402
from games.engine.melds import discard_deadwoods, least_deadwood  # noqa: E402
from games.engine.showdown import settle_knock  # noqa: E402

HANDS = 1000
REPEATS = 9  # the best pass counts: other processes only ever slow a pass down
KNOCK_LIMIT = 10
RICH_RANKS = 5  # meld-rich hands are dealt from this many neighbouring ranks


def random_deals(rng, size):
    return [rng.sample(ALL_CARDS, size) for _ in range(HANDS)]


def meld_rich_deals(rng, size):
    deals = []
    for _ in range(HANDS):
        width = max(RICH_RANKS, -(-size // 4))
        low = rng.randrange(13 - width + 1)
        pool = [card for card in ALL_CARDS if low <= card.rank < low + width]
        deals.append(rng.sample(pool, size))
    return deals


def microseconds_per_hand(*jobs):
    """For each (function, inputs) job, the best of several timed passes, per input.

    The jobs' passes alternate, so a busy machine slows the engine and RLCard alike.
    """
    best = [float("inf")] * len(jobs)
    for _ in range(REPEATS):
        for slot, (function, inputs) in enumerate(jobs):
            start = time.perf_counter()
            for item in inputs:
                function(item)
            best[slot] = min(best[slot], time.perf_counter() - start)
    return [seconds / len(inputs) * 1e6 for seconds, (_, inputs) in zip(best, jobs)]


def legal_knocks(mask):
    """{card index: deadwood} for every discard that leaves at most the knock limit."""
    return discard_deadwoods(mask, KNOCK_LIMIT)


def showdown(masks):
    return settle_knock(0, masks, "AS")


def engine_jobs(deals10, deals11, deals20):
    return {
        "a": (least_deadwood, [mask_of(cards) for cards in deals10]),
        "b": (legal_knocks, [mask_of(cards) for cards in deals11]),
        "c": (showdown, [[mask_of(cards[:10]), mask_of(cards[10:])] for cards in deals20]),
    }


def rlcard_jobs(deals10, deals11):
    """RLCard's own functions on the same hands, or {} if rlcard is not installed."""
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy import judge
        from rlcard.games.gin_rummy.utils import melding
    except ImportError:
        return {}

    def convert(cards):
        return [RLCard(suit=str(card)[1], rank=str(card)[0]) for card in cards]

    return {
        "a": (melding.get_best_meld_clusters, [convert(cards) for cards in deals10]),
        "b": (lambda hand: judge.get_going_out_cards(hand, KNOCK_LIMIT), [convert(cards) for cards in deals11]),
    }


def report(label, ours, theirs):
    line = f"  {label:32} {ours:8.2f} us/hand"
    if theirs is not None:
        line += f"   rlcard {theirs:8.2f} us/hand   ratio {theirs / ours:6.1f}x"
    print(line)


def main():
    rng = random.Random(2026)
    labels = {"a": "(a) least deadwood, 10 cards", "b": "(b) legal knocks, 11 cards", "c": "(c) showdown with lay-offs"}
    for kind, deal in (("random", random_deals), ("meld-rich", meld_rich_deals)):
        deals10, deals11, deals20 = deal(rng, 10), deal(rng, 11), deal(rng, 20)
        ours, theirs = engine_jobs(deals10, deals11, deals20), rlcard_jobs(deals10, deals11)
        print(f"{kind} hands ({HANDS} each, best of {REPEATS}):")
        for key, label in labels.items():
            timings = microseconds_per_hand(ours[key], *([theirs[key]] if key in theirs else []))
            report(label, timings[0], timings[1] if key in theirs else None)
    if not theirs:
        print("rlcard is not importable: no comparison (pip install rlcard==1.2.0 in a scratch venv)")


if __name__ == "__main__":
    main()
