"""Matches played by the engine with a simple, sensible policy, for tests and bulk fills.

The policy: knock as soon as a knock is legal (with the discard that leaves the least
deadwood); take the discard only when it lowers the deadwood; otherwise draw from the
stock and throw the card whose loss leaves the least deadwood. In Straight Gin each side may
hold what the other needs, and a single hand then reshuffles for ever under this policy: a
match with a hand of STUCK_MOVES moves is given up and dealt again.
"""

import random

from games.engine import Deal, Match, Move, Options, deadwood_points, parse_cards
from games.engine.deal import SHARE_BYTES


def choose_move(hand, rng):
    seat = hand.to_move
    view = hand.view(seat)
    moves = hand.legal_moves()
    if view["phase"] == "discard":
        return best_discard(moves, view["discard_deadwood"], rng)
    if "pile" in moves and takes_pile(view):
        return "pile"
    if "pass" in moves:
        return "pass"
    return "stock" if "stock" in moves else rng.choice(moves)


def best_discard(moves, leaves, rng):
    """A knock if one is legal, else the discard that keeps the least deadwood."""
    parsed = [Move.from_text(move) for move in moves]
    knocks = [move for move in parsed if move.verb == "knock"]
    candidates = knocks or [move for move in parsed if move.verb == "discard"]
    least = min(leaves[str(move.card)] for move in candidates)
    return rng.choice([move.text() for move in candidates if leaves[str(move.card)] == least])


def takes_pile(view):
    """Whether the top discard would lower this hand's deadwood after the best discard."""
    held = parse_cards(" ".join(view["hand"]))
    with_top = held + parse_cards(view["discard_top"])
    best = min(deadwood_points(with_top[:i] + with_top[i + 1 :]) for i in range(len(held)))
    return best < view["deadwood_points"]


# Straight Gin, a single hand, seed 210 (tests/archive/test_simulate.py): four 4s, four 10s
# and two aces against 7-7-7, 5-9 of hearts and the other two aces, 1,877 moves and 30
# reshuffles with no end in sight. Of 1,000 seeded single hands of Straight Gin (seeds 0-999),
# the longest that ended took 328 moves, and 7 reached 1,000 without ending.
STUCK_MOVES = 1000


def play_match(scoring="hollywood", target=100, straight=False, oklahoma=False, rng=None, dealt=False):
    """A whole match played out by the policy; returns the engine's Match. `dealt`: each hand
    from a Deal (docs/fairness.md) whose shares `rng` draws, as live play deals."""
    rng = rng or random.Random()
    while True:
        match = play_or_give_up(Options(straight=straight, oklahoma=oklahoma), scoring, target, rng, dealt)
        if match is not None:
            return match


def play_or_give_up(options, scoring, target, rng, dealt=False):
    """A match played out, or None if one of its hands reached STUCK_MOVES moves."""
    deal = (lambda: drawn_deal(rng)) if dealt else lambda: None
    match = Match(options, scoring=scoring, target=target, first_dealer=rng.randrange(2), rng=rng, deal=deal())
    while True:
        while match.hand.result is None:
            if len(match.hand.history) >= STUCK_MOVES:
                return None
            match.play(choose_move(match.hand, rng))
        if match.is_over:
            return match
        match.next_hand(deal=deal())


def drawn_deal(rng):
    """A Deal whose seed and contributions `rng` draws: reproducible from a simulation's seed."""
    seed, first, second = (rng.randbytes(SHARE_BYTES).hex() for _ in range(3))
    return Deal(seed, (first, second))
