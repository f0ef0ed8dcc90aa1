"""How strong each computer level is, against a published baseline and against each other.

    python benchmarks/computer.py                      # 200 games a pairing, 2 workers
    python benchmarks/computer.py --games 2000 --pairings expert-simple
    python benchmarks/computer.py --games 400 --workers 2 --pairings club-simple,expert-club

The baseline is Todd Neller's SimpleGinRummyPlayer, the yardstick of the EAAI-2021 Gin Rummy
challenge, written here from its description: it takes the face-up card only if the card
joins a meld, sheds a random card among those that leave the least deadwood (never the card
just taken), and knocks at the first chance. Published against it, in games to 100:
challenge entries 55-68%; jdh8/gin-rummy-engine greedy 59.8%, Monte Carlo 65.4% (64
samples) and 69.2% (128 samples).

Every pairing plays one game to 100 on this site's rules (the two-card rule, bonuses that do
not count toward the target), in mirrored pairs: the same seeded deals twice, seats swapped,
so neither side is dealt the better cards. Per pairing it prints the games won with a 95%
Wilson interval, the hands won, the points per hand, and the first player's milliseconds per
decision (median, p99, max).
"""

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.computer import LEVELS, choose_move  # noqa: E402
from games.engine import Match, Options  # noqa: E402
from games.engine.cards import Card, mask_of  # noqa: E402
from games.engine.melds import run_cards  # noqa: E402

TARGET = 100
BASELINE = "simple"
DEFAULT_PAIRINGS = [f"{level}-{BASELINE}" for level in LEVELS] + [f"{upper}-{lower}" for lower, upper in zip(LEVELS, LEVELS[1:])]
Z95 = 1.96


# The baseline ------------------------------------------------------------------------------


def simple_move(view, rng):
    """Todd Neller's SimpleGinRummyPlayer, from its description, on this site's moves."""
    hand_view = view["hand_view"]
    legal = hand_view["legal_moves"]
    if hand_view["phase"] != "discard":
        if "pile" in legal and joins_a_meld(hand_view["hand"], hand_view["discard_top"]):
            return "pile"
        return "pass" if "pass" in legal else "stock"
    leaves = hand_view["discard_deadwood"]  # never holds the card just taken
    least = min(leaves.values())
    card = rng.choice(sorted(code for code, deadwood in leaves.items() if deadwood == least))
    return f"knock {card}" if f"knock {card}" in legal else f"discard {card}"


def joins_a_meld(hand_codes, card_code):
    """Whether the card forms a set or a run with cards of the hand (any meld, best or not)."""
    card = Card.from_code(card_code)
    hand = mask_of(Card.from_code(code) for code in hand_codes)
    same_rank = sum(hand >> (13 * suit + card.rank) & 1 for suit in range(4))
    return same_rank >= 2 or bool(run_cards(hand | card.mask) & card.mask)


def move_for(player, view, rng):
    return simple_move(view, rng) if player == BASELINE else choose_move(view, player, rng)


# One mirrored pair ---------------------------------------------------------------------------


def play_game(players, seed):
    """One game to 100 from seeded deals; per seat: won?, hands won, points, decision times."""
    match = Match(Options(), scoring="game", target=TARGET, first_dealer=seed % 2, rng=random.Random(seed))
    rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
    times = ([], [])
    while True:
        while match.hand.result is None:
            seat = match.hand.to_move
            view = match.view(seat)
            start = time.perf_counter()
            move = move_for(players[seat], view, rngs[seat])
            times[seat].append(time.perf_counter() - start)
            match.play(move)
        if match.is_over:
            break
        match.next_hand()
    results = match.results
    return [
        {
            "won": match.winner == seat,
            "hands_won": sum(result.winner == seat for result in results),
            "hands": len(results),
            "points": sum(result.points for result in results if result.winner == seat),
            "times": times[seat],
        }
        for seat in (0, 1)
    ]


def play_pair(task):
    """Both games of a mirrored pair, from the first player's side: [(mine, theirs)] ."""
    first, second, seed = task
    straight = play_game((first, second), seed)
    swapped = play_game((second, first), seed)
    return [(straight[0], straight[1]), (swapped[1], swapped[0])]


# Figures ------------------------------------------------------------------------------------


def wilson(wins, games):
    """The 95% Wilson score interval of a win rate, as (low, high)."""
    if not games:
        return 0.0, 0.0
    share = wins / games
    centre = share + Z95 * Z95 / (2 * games)
    spread = Z95 * math.sqrt(share * (1 - share) / games + Z95 * Z95 / (4 * games * games))
    scale = 1 + Z95 * Z95 / games
    return (centre - spread) / scale, (centre + spread) / scale


def percentile(ordered, share):
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def report(first, second, games, seconds):
    mine = [pair[0] for pair in games]
    theirs = [pair[1] for pair in games]
    wins = sum(side["won"] for side in mine)
    low, high = wilson(wins, len(games))
    hands = sum(side["hands"] for side in mine)
    draws = hands - sum(side["hands_won"] for side in mine) - sum(side["hands_won"] for side in theirs)
    times = sorted(t * 1000 for side in mine for t in side["times"])
    print(
        f"{first:>8} vs {second:<8} games {wins:>5}/{len(games):<5} = {wins / len(games):6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  hands won {sum(s['hands_won'] for s in mine)}-{sum(s['hands_won'] for s in theirs)} "
        f"(draws {draws})  points/hand {sum(s['points'] for s in mine) / hands:5.2f} vs {sum(s['points'] for s in theirs) / hands:5.2f}  "
        f"ms/decision median {statistics.median(times):6.2f} p99 {percentile(times, 0.99):7.2f} max {times[-1]:7.1f}  "
        f"({seconds:.0f} s)",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (rounded up to mirrored pairs)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the machine has 2 shared cores)")
    parser.add_argument("--pairings", default=",".join(DEFAULT_PAIRINGS), help="comma-separated first-second, e.g. expert-simple")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pairs = -(-args.games // 2)
    print(f"games to {TARGET}, {pairs * 2} a pairing in mirrored pairs, {args.workers} workers; the first player's figures")
    with Pool(args.workers) as pool:
        for pairing in args.pairings.split(","):
            first, second = pairing.split("-")
            for player in (first, second):
                if player != BASELINE and player not in LEVELS:
                    parser.error(f"unknown player {player!r}: {', '.join(LEVELS)} or {BASELINE}")
            start = time.perf_counter()
            tasks = [(first, second, args.seed * 1_000_003 + index) for index in range(pairs)]
            games = [game for pair in pool.imap_unordered(play_pair, tasks, chunksize=4) for game in pair]
            report(first, second, games, time.perf_counter() - start)


if __name__ == "__main__":
    main()
