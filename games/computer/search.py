"""Determinized Monte Carlo: sample worlds consistent with the view, play each candidate move
out in every world with the greedy policy, and keep the move worth most in the match.

The opponent's unseen cards are drawn by the odds the Knowledge gives each card, the rest
make the stock in a random order. Every candidate meets the same worlds, so the comparison
between them is sharper than the count of worlds alone would make it.
"""

from games.engine.cards import Card

from .knowledge import cards_in
from .rollout import BOTH_PASSED, NO_CARD, PLAYING, World, discard, draw_stock, finish_turn, play_out


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
    return World(hands, stock, list(knowledge.pile), seat, knowledge.knock_limit, knowledge.two_card_rule, knowledge.dealer, _passes(knowledge))


def _passes(knowledge):
    if knowledge.phase == "offer":
        return knowledge.passes
    return BOTH_PASSED if knowledge.passes == 2 and knowledge.opponent_turns == 0 and knowledge.seat != knowledge.dealer else PLAYING


def copy_world(world):
    return World(list(world.hands), list(world.stock), list(world.pile), world.to_move, world.knock_limit, world.two_card_rule, world.dealer, world.passes)


def apply(world, move):
    """Play our move in the world; (winner, points) if that ends the hand, else None."""
    seat = world.to_move
    verb, _, code = move.partition(" ")
    if verb == "pass":
        world.passes += 1
        world.to_move = world.dealer if world.passes == 1 else 1 - world.dealer
        return None
    if verb == "pile":
        top = world.pile.pop()
        world.hands[seat] |= 1 << top
        world.passes = PLAYING
        return finish_turn(world, seat, top)
    if verb == "stock":
        draw_stock(world, seat)
        world.passes = PLAYING
        return finish_turn(world, seat, NO_CARD)
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
