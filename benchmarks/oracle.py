"""What a perfect read of the opponent's hand would be worth: computer.py's games with the
expert's guessed hands replaced by the opponent's true hand.

    python benchmarks/oracle.py --games 2000 --seed 2 --pairings expert-simple --workers 2
    ORACLE=hands python benchmarks/oracle.py --games 2000 --seed 2 --pairings expert-simple

Against a player read as knocking at once (``knocks_at_once``: the baseline), the expert guesses
the opponent's hand by sampled hands (``inference.infer``), which give the odds of each card
(the stock's odds and the outs come from them) and the sampled hands the feed, knock-next and
hold terms read. Here every sampled hand is the true one:

- ``ORACLE=full`` (the default): both the sampled hands and the card odds come from the truth;
- ``ORACLE=hands``: only the sampled hands; the card odds stay the Knowledge's.

``ORACLE_BLUR=k`` blurs the truth: in each sampled hand, k of the cards it holds unseen by us
are swapped for cards drawn evenly from the rest of the unseen ones (each sampled hand its own
swaps), so that how the read's worth falls with its sharpness can be seen.

An upper bound for the read, not a player: the expert's own moves and the rest of its judgement
are unchanged, and no game of the site ever gives a seat the other's cards. The arguments are
computer.py's (``--set``, ``--record``, ``--paired-with``: the same deals as a computer.py run).
"""

import multiprocessing
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchmarks.computer as computer  # noqa: E402
import games.computer.players as players  # noqa: E402
from games.computer.knowledge import cards_in  # noqa: E402
from games.engine import Match  # noqa: E402

MODES = ("full", "hands")
_truth = {}  # the other seat's hand at the decision being made; ORACLE_BLUR's swaps
_view = Match.view


def _view_noting_the_other_hand(match, seat):
    """Match.view, noting the other seat's true hand for the move about to be chosen."""
    _truth["hand"] = match.hand.hands[1 - seat]
    return _view(match, seat)


def _true_hands(knowledge, last, seed, samples, tries):
    """``infer``'s place: every sampled hand the true one, blurred by ORACLE_BLUR swaps."""
    swaps, truth = _truth["swaps"], _truth["hand"]
    if not swaps:
        return [truth] * samples
    rng = random.Random(seed)
    hidden = cards_in(truth & ~knowledge.opponent_known)
    others = cards_in(knowledge.unseen & ~truth)
    hands = []
    for _ in range(samples):
        hand = truth
        for out, into in zip(rng.sample(hidden, min(swaps, len(hidden))), rng.sample(others, min(swaps, len(others)))):
            hand = hand & ~(1 << out) | 1 << into
        hands.append(hand)
    return hands


def no_track(*args):
    """``track``'s place: no hands, so the expert reads ``infer``'s (the true ones here)."""
    return []


def _prior_odds(hands, prior_odds, prior_samples):
    """``posterior_odds``' place when only the hands are true: the Knowledge's odds unchanged."""
    return prior_odds


def install(mode, swaps):
    _truth["swaps"] = swaps
    Match.view = _view_noting_the_other_hand
    players.infer = _true_hands
    players.track = no_track  # the whole-hand filter is read before infer
    if mode == "hands":
        players.posterior_odds = _prior_odds


if __name__ == "__main__":
    mode = os.environ.get("ORACLE", "full")
    if mode not in MODES:
        raise SystemExit(f"ORACLE={mode}: one of {', '.join(MODES)}")
    swaps = int(os.environ.get("ORACLE_BLUR", 0))
    install(mode, swaps)
    multiprocessing.set_start_method("fork")  # the workers inherit the patched functions
    print(f"oracle: {mode}, {swaps} hidden cards swapped")
    computer.main()
