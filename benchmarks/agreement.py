"""How often the expert's move from its read of the opponent's hand is the move it would make
knowing that hand: a read judged by the decisions it changes, in seconds instead of the
minutes 2,000 games take.

    python benchmarks/agreement.py --games 40 --seed 3
    python benchmarks/agreement.py --games 12 --seed 2 --read /tmp/inference.py:infer
    python benchmarks/agreement.py --games 40 --seed 3 --set inference.TRACK_STEPS_PER_PARTICLE=1000000

It plays computer.py's games of the expert against SimpleGinRummyPlayer (the same seeds, the
same deals, the expert's own moves, so the same games). At each decision of the expert against
a player read as knocking at once (``knocks_at_once``: there the sampled hands of
``inference.infer`` decide much), it also asks what the expert would play:

- with every sampled hand the opponent's true hand (oracle.py's ``ORACLE=full``);
- with ``--read FILE:FUNCTION`` in place of ``inference.infer`` (same arguments; the function
  may also take ``view=`` for the whole view), if given: another read, say a reverted commit's.

Each call gets a copy of the seat's random stream, so a move differs only by the read. It
prints how often the expert's move and the other read's differ from the true hand's, by kind
(a discard for another discard, the pile for the stock...), and the milliseconds each takes.
An agreement is not a win: a read that agrees more still has to win games in computer.py.
The true hand is an upper bound (no seat of the site ever sees the other's cards); with it the
expert wins 94.0% of seed 2's 2,000 games against 80.8% (docs/computer.md, seventeenth pass).
"""

import argparse
import importlib.util
import inspect
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchmarks.computer as computer  # noqa: E402
import benchmarks.oracle as oracle  # noqa: E402
import games.computer.players as players  # noqa: E402
from games.computer import choose_move  # noqa: E402

OWN_READ = players.infer
OWN_TRACK = players.track
_other = {}  # the --read function, loaded in each worker


def load_read(spec):
    """The function named by FILE:FUNCTION, and whether it takes the view."""
    path, _, name = spec.rpartition(":")
    loader = importlib.util.spec_from_file_location("other_read", path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    function = getattr(module, name)
    return function, "view" in inspect.signature(function).parameters


def start_worker(spec, settings=()):
    computer.apply_settings(settings)
    oracle.install("full", 0)  # notes the true hand at each view
    players.infer, players.track = OWN_READ, OWN_TRACK
    if spec:
        _other["read"], _other["wants_view"] = load_read(spec)


def move_with(read, view, rng):
    """(the expert's move with ``read`` as its inference.infer, seconds), on a copy of ``rng``."""
    players.infer = read
    if read is not OWN_READ:
        players.track = oracle.no_track  # else the whole-hand filter's hands would be read first
    copy = random.Random()
    copy.setstate(rng.getstate())
    start = time.perf_counter()
    try:
        move = choose_move(view, "expert", copy)
    finally:
        players.infer, players.track = OWN_READ, OWN_TRACK
    return move, time.perf_counter() - start


def kind(move, other):
    return f"{move.split()[0]} for {other.split()[0]}"


def judged_expert(tally):
    """A computer.py seat for the expert that tallies its agreement with the true hand's move."""

    def move(view, rng):
        seat = view["hand_view"]["seat"]
        if players.knocks_at_once(view, 1 - seat, view["hand_view"]["knock_limit"]):
            truth, _ = move_with(oracle._true_hands, view, rng)
            own, own_time = move_with(OWN_READ, view, rng)
            tally["decisions"] += 1
            tally["own ms"] += own_time * 1000
            if own != truth:
                tally["own differs"] += 1
                tally[f"own: {kind(own, truth)}"] = tally.get(f"own: {kind(own, truth)}", 0) + 1
            if "read" in _other:
                read = _other["read"]
                if _other["wants_view"]:
                    base = read
                    read = lambda *args: base(*args, view=view)  # noqa: E731
                theirs, their_time = move_with(read, view, rng)
                tally["other ms"] += their_time * 1000
                tally["other differs"] += theirs != truth
                tally["other fixes"] += own != truth and theirs == truth
                tally["other breaks"] += own == truth and theirs != truth
        return choose_move(view, "expert", rng)

    return move


def play_pair(seed):
    """computer.py's mirrored pair of this seed, the expert's seat tallied."""
    tally = dict.fromkeys(("decisions", "own differs", "own ms", "other differs", "other fixes", "other breaks", "other ms"), 0)
    yardstick = computer.seat_for

    def seat_for(player, budget):
        return judged_expert(tally) if player == "expert" else yardstick(player, budget)

    computer.seat_for = seat_for
    try:
        computer.play_pair(("expert", "simple", seed, None))
    finally:
        computer.seat_for = yardstick
    return tally


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games (rounded up to mirrored pairs)")
    parser.add_argument("--seed", type=int, default=3, help="computer.py's seed: the same deals")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--read", metavar="FILE:FUNCTION", help="another read in place of inference.infer")
    parser.add_argument("--set", action="append", default=[], metavar="module.NAME=VALUE", help="a constant of games.computer for this run (as computer.py's --set)")
    args = parser.parse_args()
    seeds = [args.seed * 1_000_003 + number for number in range(-(-args.games // 2))]
    total = {}
    with Pool(args.workers, initializer=start_worker, initargs=(args.read, args.set)) as pool:
        for tally in pool.imap_unordered(play_pair, seeds):
            for key, count in tally.items():
                total[key] = total.get(key, 0) + count
    decisions = total["decisions"] or 1
    print(f"{len(seeds) * 2} games, seed {args.seed}: {total['decisions']} decisions against a player read as knocking at once"
          + "".join(f"; {setting}" for setting in args.set))
    print(f"  the expert's read: differs from the true hand's move at {total['own differs']} ({total['own differs'] / decisions:.1%}), "
          f"{total['own ms'] / decisions:.1f} ms a decision (mean)")
    for key in sorted(key for key in total if key.startswith("own: ")):
        print(f"    {key[5:]}: {total[key]}")
    if args.read:
        print(f"  {args.read}: differs at {total['other differs']} ({total['other differs'] / decisions:.1%}); "
              f"right where the expert's read is wrong {total['other fixes']}, wrong where it is right {total['other breaks']}; "
              f"{total['other ms'] / decisions:.1f} ms a decision (mean)")


if __name__ == "__main__":
    main()
