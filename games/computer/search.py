"""Determinized Monte Carlo: sample worlds consistent with the view, play each candidate move
out in every world with the greedy policy, and keep the move worth most in the match.

The opponent's unseen cards are drawn by the odds the Knowledge gives each card, the rest
make the stock in a random order. Every candidate meets the same worlds, so the comparison
between them is sharper than the count of worlds alone would make it.
"""

from games.engine.cards import Card

from .knowledge import cards_in
from .rollout import BOTH_PASSED, PLAYING, World, discard, pass_upcard, play_out, take_pile, take_stock


def sample_world(knowledge, rng):
    """One deal the view cannot tell from the real one."""
    unseen = cards_in(knowledge.unseen)
    weights = knowledge.weights
    # Weighted sampling without replacement (Efraimidis and Spirakis): the largest keys win.
    keyed = sorted(unseen, key=lambda card: rng.random() ** (1.0 / weights[card]) if weights[card] > 0 else 0.0, reverse=True)
    count = knowledge.opponent_unknown
    theirs = knowledge.opponent_known | sum(1 << card for card in keyed[:count])
    stock = keyed[count:]
    rng.shuffle(stock)
    seat = knowledge.seat
    hands = [0, 0]
    hands[seat], hands[1 - seat] = knowledge.mine, theirs
    return World(hands, stock, list(knowledge.pile), seat, knowledge.knock_limit, knowledge.two_card_rule, knowledge.dealer, passes_of(knowledge))


def passes_of(knowledge):
    if knowledge.phase == "offer":
        return knowledge.passes
    return BOTH_PASSED if knowledge.must_draw_stock else PLAYING


def copy_world(world):
    return World(list(world.hands), list(world.stock), list(world.pile), world.to_move, world.knock_limit, world.two_card_rule, world.dealer, world.passes)


def apply(world, move):
    """Play our move in the world; (winner, points) if that ends the hand, else None."""
    seat = world.to_move
    verb, _, code = move.partition(" ")
    if verb == "pass":
        pass_upcard(world)
        return None
    if verb == "pile":
        return take_pile(world, seat)
    if verb == "stock":
        return take_stock(world, seat)
    return discard(world, seat, Card.from_code(code).index, knock=verb == "knock")


def evaluate(knowledge, moves, stakes, worlds, rng):
    """{move: mean match value} over ``worlds`` sampled worlds, the same worlds for each move."""
    totals = dict.fromkeys(moves, 0.0)
    for _ in range(worlds):
        world = sample_world(knowledge, rng)
        for move in moves:
            trial = copy_world(world)
            ended = apply(trial, move)
            winner, points = ended if ended is not None else play_out(trial)
            totals[move] += stakes.value(winner, points)
    return {move: total / worlds for move, total in totals.items()}
