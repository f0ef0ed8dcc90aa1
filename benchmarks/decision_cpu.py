"""The CPU time of each of the expert's decisions, as its process spends it: what a decision
costs a server, apart from how busy the machine is (computer.py's milliseconds are wall-clock,
and on a shared machine a niced process waits far longer than it thinks).

    python benchmarks/decision_cpu.py --games 8 --seed 904
    python benchmarks/decision_cpu.py --games 8 --seed 904 --set inference.TRACK_STEPS_PER_PARTICLE=1000000

It plays computer.py's mirrored pairs (the same seeds, the same deals) in this one process and
prints the expert's CPU milliseconds a decision (median, p90, p99, max), and those of its
decisions that read the whole-hand filter (``inference.track``).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchmarks.computer as computer  # noqa: E402
import games.computer.players as players  # noqa: E402


def timed(function, spent):
    """``function``, appending the CPU seconds of each call to ``spent``."""

    def call(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent.append(time.process_time() - start)

    return call


def figures(seconds):
    ordered = sorted(seconds)
    if not ordered:
        return "none"
    at = lambda share: 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]  # noqa: E731
    return (f"{len(ordered)}: mean {1000 * statistics.fmean(ordered):.1f}  median {1000 * statistics.median(ordered):.1f}  p90 {at(0.9):.1f}  "
            f"p99 {at(0.99):.1f}  max {1000 * ordered[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games (rounded up to mirrored pairs)")
    parser.add_argument("--seed", type=int, default=904)
    parser.add_argument("--against", default="simple", help="the expert's opponent (a yardstick or a level)")
    parser.add_argument("--set", action="append", default=[], metavar="module.NAME=VALUE", help="a constant of games.computer (as computer.py's --set)")
    args = parser.parse_args()
    computer.apply_settings(args.set)
    decisions, reads = [], []
    computer.choose_move = timed(computer.choose_move, decisions)
    players.track = timed(players.track, reads)
    for number in range(-(-args.games // 2)):
        computer.play_pair(("expert", args.against, args.seed * 1_000_003 + number, None))
    print(f"expert vs {args.against}, {args.games} games, seed {args.seed}" + "".join(f"; {s}" for s in args.set))
    print(f"  the expert's decisions {figures(decisions)}")
    print(f"  of which reading the whole-hand filter {figures(reads)}")


if __name__ == "__main__":
    main()
