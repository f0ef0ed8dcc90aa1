"""Determinized Monte Carlo: sample worlds consistent with the view, play each candidate move
out in every world with the greedy policy, and keep the move worth most in the match.

The opponent's unseen cards are drawn by the odds the Knowledge gives each card, the rest
make the stock in a random order. Every candidate meets the same worlds, so the comparison
between them is sharper than the count of worlds alone would make it.
"""

from games.engine.cards import Card
from games.engine.melds import discard_deadwoods

from .knowledge import cards_in
from .rollout import BOTH_PASSED, PLAYING, World, discard, pass_upcard, play_out, take_pile, take_stock


# How many imaginary turns develop a sampled opponent hand, per stock draw they made.
# Against MARJJ (200 games, seed 3): 0 -> 37.5%, 1.0 -> 37.0%: knocking waits so much longer
# (our undercut knocks 204 -> 52) that MARJJ's gins rise 264 -> 444.
DEVELOP_SHARE = 0.0


def sample_world(knowledge, rng):
    """One deal the view cannot tell from the real one."""
    unseen = cards_in(knowledge.unseen)
    weights = knowledge.weights
    # Weighted sampling without replacement (Efraimidis and Spirakis): the largest keys win.
    keyed = sorted(unseen, key=lambda card: rng.random() ** (1.0 / weights[card]) if weights[card] > 0 else 0.0, reverse=True)
    count = knowledge.opponent_unknown
    theirs = knowledge.opponent_known | sum(1 << card for card in keyed[:count])
    stock = keyed[count:]
    steps = round(DEVELOP_SHARE * knowledge.opponent_stock_draws)
    if steps and stock:
        theirs = develop(theirs, knowledge.opponent_known, stock, steps, rng)
    rng.shuffle(stock)
    seat = knowledge.seat
    hands = [0, 0]
    hands[seat], hands[1 - seat] = knowledge.mine, theirs
    return World(hands, stock, list(knowledge.pile), seat, knowledge.knock_limit, knowledge.two_card_rule, knowledge.dealer, _passes(knowledge))


def develop(theirs, known, pool, steps, rng):
    """The opponent's hand after ``steps`` imaginary turns: each draws a card of ``pool`` and
    sheds the one leaving the least deadwood (never a card we saw them take), which goes back
    to the pool. A hand dealt at random is far rawer than one played for ten turns; this
    makes it as developed, without pretending to know which cards made it so."""
    for _ in range(steps):
        slot = rng.randrange(len(pool))
        hand = theirs | 1 << pool[slot]
        shed = min((deadwood, card) for card, deadwood in discard_deadwoods(hand).items() if not known >> card & 1)[1]
        theirs = hand & ~(1 << shed)
        pool[slot] = shed
    return theirs


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


def evaluate(knowledge, moves, stakes, worlds, rng, self_knocks=()):
    """{move: mean match value} over ``worlds`` sampled worlds, the same worlds for each move.

    A move that does not end the hand is played out once for each of our knock thresholds in
    ``self_knocks`` besides the knock limit (knocking at once, or waiting for a lower
    deadwood or gin), and is worth the best of them.
    """
    seat = knowledge.seat
    plans = [(move, at) for move in moves for at in (None, *self_knocks)]
    totals = dict.fromkeys(plans, 0.0)
    for _ in range(worlds):
        world = sample_world(knowledge, rng)
        for move, at in plans:
            trial = copy_world(world)
            if at is not None:
                trial.knock_at[seat] = min(at, trial.knock_limit)
            ended = apply(trial, move)
            winner, points = ended if ended is not None else play_out(trial)
            totals[move, at] += stakes.value(winner, points)
    values = {}
    for (move, _), total in totals.items():
        values[move] = max(values.get(move, 0.0), total / worlds)
    return values
