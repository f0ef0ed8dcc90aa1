"""Determinized Monte Carlo: sample worlds consistent with the view, play each candidate move
out in every world with the greedy policy, and keep the move worth most in the match.

The opponent's unseen cards are drawn by the odds the Knowledge gives each card, the rest
make the stock in a random order. Every candidate meets the same worlds, so the comparison
between them is sharper than the count of worlds alone would make it.
"""

from games.engine.cards import Card
from games.engine.melds import discard_deadwoods, least_deadwood

from .knowledge import cards_in
from .rollout import BOTH_PASSED, PLAYING, World, discard, pass_upcard, play_out, play_out_holding, take_pile, take_stock

# A sampled opponent hand that could knock is drawn again up to this many times in all.
REJECTION_TRIES = 20


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


def sample_unready_world(knowledge, rng, tries, last_discard=None):
    """A world in which the opponent's hand could not knock (a player who knocks at once and
    discarded without knocking holds more than the knock limit) and, given ``last_discard``
    ((its last discard, the card it had just taken from the pile or -1)), that discard left the
    least deadwood of its eleven cards, as a greedy player's does; by rejection: at most
    ``tries`` samples, the last one kept whatever it holds."""
    opponent = 1 - knowledge.seat
    for _ in range(tries):
        world = sample_world(knowledge, rng)
        hand = world.hands[opponent]
        if least_deadwood(hand) <= knowledge.knock_limit:
            continue
        if last_discard is not None:
            card, taken = last_discard
            deadwoods = discard_deadwoods(hand | 1 << card)
            if deadwoods[card] > min(deadwood for other, deadwood in deadwoods.items() if other != taken):
                continue
        break
    return world


def evaluate_discards(knowledge, moves, stakes, worlds, rng, schedule, unready=True, tries=REJECTION_TRIES, last_discard=None):
    """{move: [its match value in each world]} of discards over ``worlds`` sampled worlds (the
    same for each move), played out with the opponent knocking at once and us knocking by
    ``schedule`` (rollout.play_out_holding); ``unready``: the opponent's hand could not knock."""
    values = {move: [] for move in moves}
    for _ in range(worlds):
        world = sample_unready_world(knowledge, rng, tries, last_discard) if unready else sample_world(knowledge, rng)
        for move in moves:
            trial = copy_world(world)
            ended = apply(trial, move)
            winner, points = ended if ended is not None else play_out_holding(trial, knowledge.seat, schedule, knowledge.opponent_turns)
            values[move].append(stakes.value(winner, points))
    return values


def surely_better(values, first, margin):
    """The move whose values beat ``first``'s (on the same worlds) by the most, counting only
    those whose mean gain is more than ``margin`` standard errors; ``first`` if none is."""
    base = values[first]
    best, best_gain = first, 0.0
    for move, mine in values.items():
        if move == first:
            continue
        gains = [a - b for a, b in zip(mine, base)]
        count = len(gains)
        mean = sum(gains) / count
        spread = (sum((gain - mean) ** 2 for gain in gains) / max(1, count - 1)) ** 0.5
        if mean > best_gain and mean > margin * spread / count ** 0.5:
            best, best_gain = move, mean
    return best
