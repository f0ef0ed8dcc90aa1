"""Is the computer's review right? Accuracy in the levels' order, planted errors found, its cost.

    python benchmarks/review.py                          # 6 games a player, 6 planted, costs
    python benchmarks/review.py --games 20 --seed 2 --parts levels
    python benchmarks/review.py --parts planted,cost

- ``levels``: each player (expert, club, beginner, and the EAAI challenge's baseline
  SimpleGinRummyPlayer, ``simple``) plays games to 100 against the club, in mirrored pairs of
  seeded deals; every game is reviewed (games.computer.review) and each player's decisions
  summed: accuracy (the mean of lichess's per-move accuracy), tags per 100 decisions, luck.
- ``planted``: the expert, except that now and then it breaks a made meld to discard (a card of
  a meld of three or more, when a loose card could go) or knocks into an obvious undercut (a
  knock with 5 or more deadwood once the opponent has drawn 7 times, where its true hand, which
  this player peeks at, undercuts it). Each planted decision is looked up in the review: tagged
  mistake or blunder, inaccuracy, or nothing.
- ``cost``: CPU seconds (one core, time.process_time) to review each game to 100 of the parts
  above, and one Hollywood match of at least 40 hands.
- ``latency``: the live tables' latency while reviews run: benchmarks/load.py's
  ``LOAD_ARGUMENTS`` run alone, then beside a process that reviews games without a pause at the
  niceness `dev.py serve` gives its task worker (a worker's CPU work without its database).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.computer import seat_for  # noqa: E402
from games.computer import choose_move  # noqa: E402
from games.computer.review import review_match, seat_summaries  # noqa: E402
from games.engine import Match, Options  # noqa: E402
from games.engine.cards import Card  # noqa: E402
from games.engine.showdown import settle_knock  # noqa: E402

PLAYERS = ("expert", "club", "beginner", "simple")
OPPONENT = "club"
TARGET = 100
# The planted player errs at this share of the chances it has to.
PLANT_SHARE = 0.25
LATE_DRAWS = 7
UNDERCUT_KNOCK_AT_LEAST = 5
LONG_MATCH_HANDS = 40


def play(movers, seed, scoring="game", target=TARGET):
    """A match from seeded deals, each seat's mover (view, rng, match) -> move; the match."""
    match = Match(Options(), scoring=scoring, target=target, first_dealer=seed % 2, rng=random.Random(seed))
    rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
    while True:
        while match.hand.result is None:
            seat = match.hand.to_move
            match.play(movers[seat](match.view(seat), rngs[seat], match))
        if match.is_over:
            return match
        match.next_hand()


def mover(player, budget):
    move = seat_for(player, budget)
    return lambda view, rng, match: move(view, rng)


def reviewed(match, match_id):
    start = time.process_time()
    hands = review_match(match.to_dict(), match_id)
    return hands, time.process_time() - start


# Levels -------------------------------------------------------------------------------------


def levels(games, seed, budget, costs):
    print(f"Each player against the {OPPONENT}, {games} games to {TARGET} (mirrored pairs), every decision reviewed")
    print(f"{'player':<10} {'decisions':>9} {'accuracy':>9} {'inacc./100':>10} {'mist./100':>9} {'blund./100':>10} {'luck/hand':>9}")
    for player in PLAYERS:
        decisions, accuracies, luck, tags = 0, [], [], {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for number in range(games):
            game_seed = seed * 1000 + number // 2
            seat = number % 2  # the second game of a pair: the same deals, seats swapped
            players = (player, OPPONENT) if seat == 0 else (OPPONENT, player)
            match = play([mover(p, budget) for p in players], game_seed)
            hands, seconds = reviewed(match, f"levels-{player}-{number}")
            costs.append((len(hands), seconds))
            mine = [d for hand in hands for d in hand["decisions"] if d["seat"] == seat]
            decisions += len(mine)
            accuracies.append(seat_summaries(hands)[seat]["accuracy"])
            luck.append(seat_summaries(hands)[seat]["luck"])
            for d in mine:
                if d["tag"]:
                    tags[d["tag"]] += 1
        per100 = {tag: 100 * count / max(decisions, 1) for tag, count in tags.items()}
        print(f"{player:<10} {decisions:>9} {statistics.mean(accuracies):>8.1f}% {per100['inaccuracy']:>10.2f} "
              f"{per100['mistake']:>9.2f} {per100['blunder']:>10.2f} {statistics.mean(luck):>+9.1f}", flush=True)


# Planted errors -----------------------------------------------------------------------------


class Planted:
    """The expert, with planted errors it records as (hand number, step, kind)."""

    def __init__(self, budget, rng):
        self.budget, self.rng, self.planted = budget, rng, []

    def __call__(self, view, rng, match):
        hand_view = view["hand_view"]
        step = len(hand_view["history"])
        if hand_view["phase"] == "discard" and self.rng.random() < PLANT_SHARE:
            error = self.undercut_knock(hand_view, match) or self.broken_meld(hand_view)
            if error:
                move, kind = error
                self.planted.append((view["hand_number"], step, kind))
                return move
        return choose_move(view, "expert", rng, self.budget)

    def undercut_knock(self, hand_view, match):
        seat = hand_view["seat"]
        opponent_draws = sum(who != seat and move in ("pile", "stock") for who, move in hand_view["history"])
        if opponent_draws < LATE_DRAWS:
            return None
        for card, deadwood in sorted(hand_view["knocks"].items(), key=lambda item: item[1]):
            if deadwood >= UNDERCUT_KNOCK_AT_LEAST and deadwood > 0:
                hands = list(match.hand.hands)
                hands[seat] &= ~Card.from_code(card).mask
                if settle_knock(seat, hands, card).kind == "undercut":
                    return f"knock {card}", "undercut knock"
        return None

    def broken_meld(self, hand_view):
        melds = [meld for meld in hand_view["melds"] if len(meld) >= 3]
        loose = [c for c in hand_view["deadwood"] if c in hand_view["discard_deadwood"]]
        if not melds or not loose:
            return None
        # The meld card whose loss leaves the most deadwood: a made meld broken, not a spare card shed.
        choices = [c for meld in melds for c in meld if c in hand_view["discard_deadwood"]]
        if not choices:
            return None
        card = max(choices, key=lambda c: (hand_view["discard_deadwood"][c], c))
        least = min(hand_view["discard_deadwood"].values())
        if hand_view["discard_deadwood"][card] <= least:
            return None
        return f"discard {card}", "broken meld"


def planted(games, seed, budget, costs):
    print(f"\nPlanted errors: the expert erring at {PLANT_SHARE:.0%} of its chances, against the expert, {games} games")
    found = {}
    for number in range(games):
        planter = Planted(budget, random.Random(seed * 7 + number))
        seat = number % 2
        movers = [planter, mover("expert", budget)] if seat == 0 else [mover("expert", budget), planter]
        match = play(movers, seed * 2000 + number)
        hands, seconds = reviewed(match, f"planted-{number}")
        costs.append((len(hands), seconds))
        by_step = {(hand["number"], d["step"]): d for hand in hands for d in hand["decisions"]}
        for hand_number, step, kind in planter.planted:
            tag = by_step[(hand_number, step)]["tag"]
            key = "mistake or blunder" if tag in ("mistake", "blunder") else tag or "untagged"
            found.setdefault(kind, {}).setdefault(key, 0)
            found[kind][key] += 1
    for kind, counts in found.items():
        total = sum(counts.values())
        strong = counts.get("mistake or blunder", 0)
        print(f"{kind:<16} {total:>4} planted: {strong} tagged mistake or blunder ({100 * strong / total:.0f}%), "
              f"{counts.get('inaccuracy', 0)} inaccuracy, {counts.get('untagged', 0)} untagged")


# Cost ---------------------------------------------------------------------------------------


def long_match(seed, budget):
    """A Hollywood match of at least LONG_MATCH_HANDS hands (beginners, target 250, seeds on)."""
    while True:
        match = play([mover("beginner", budget)] * 2, seed, scoring="hollywood", target=250)
        if len(match.hands) >= LONG_MATCH_HANDS:
            return match
        seed += 1


def cost(seed, budget, costs):
    print("\nCost of a review (CPU seconds of one core)")
    if costs:
        seconds = sorted(s for _, s in costs)
        hands = [h for h, _ in costs]
        print(f"games to {TARGET}: {len(costs)} reviewed, {statistics.mean(hands):.1f} hands each; "
              f"median {statistics.median(seconds):.1f} s, max {seconds[-1]:.1f} s, "
              f"{sum(seconds) / sum(hands):.2f} s a hand")
    match = long_match(seed, budget)
    hands, seconds = reviewed(match, "long")
    print(f"a Hollywood match of {len(hands)} hands: {seconds:.1f} s")


# Latency ------------------------------------------------------------------------------------

LOAD_ARGUMENTS = ["--config", "one", "--tables", "10", "--pace", "2", "--seconds", "20"]
WORKER_NICENESS = 19  # as dev.py's


def review_forever(seed):
    """A task worker's CPU work, without end: review one game to 100 after another."""
    os.nice(WORKER_NICENESS)
    match = play([mover("club", None)] * 2, seed)
    while True:
        review_match(match.to_dict(), f"latency-{time.monotonic()}")


def load_run():
    done = subprocess.run([sys.executable, str(Path(__file__).parent / "load.py"), *LOAD_ARGUMENTS],
                          capture_output=True, text=True, check=True)
    return done.stdout


def latency(seed):
    print("\nLive tables while reviews run: benchmarks/load.py " + " ".join(LOAD_ARGUMENTS))
    print("-- alone\n" + load_run())
    reviewer = subprocess.Popen([sys.executable, __file__, "--parts", "review-forever", "--seed", str(seed)])
    try:
        print(f"-- beside a reviewing process at niceness {WORKER_NICENESS}\n" + load_run())
    finally:
        reviewer.kill()
        reviewer.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games a player (even: mirrored pairs)")
    parser.add_argument("--planted-games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=None, help="the players' thinking budget, ms")
    parser.add_argument("--parts", default="levels,planted,cost")
    args = parser.parse_args()
    parts, costs = args.parts.split(","), []
    if "levels" in parts:
        levels(args.games, args.seed, args.budget, costs)
    if "planted" in parts:
        planted(args.planted_games, args.seed, args.budget, costs)
    if "cost" in parts:
        cost(args.seed, args.budget, costs)
    if "latency" in parts:
        latency(args.seed)
    if "review-forever" in parts:
        review_forever(args.seed)


if __name__ == "__main__":
    main()
