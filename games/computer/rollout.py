"""A whole hand played out fast on card masks, both seats by a greedy policy.

The greedy policy takes the top discard when it joins a meld and lowers its deadwood, sheds the card whose loss
leaves the least deadwood, and knocks at once. It is what the search plays each sampled world
out with: crude, but fast (tens of microseconds a turn), and even across candidate moves.
"""

from games.engine.hand import CLOSED_STOCK, OFFER_PASSES, to_move_after_passes
from games.engine.melds import discard_deadwoods, least_deadwood, run_cards
from games.engine.showdown import settle_knock

NO_CARD = -1
# World.passes: the upcard passes so far (0, 1, or BOTH_PASSED: the non-dealer must draw from
# the stock), or PLAYING once the offer is over.
BOTH_PASSED, PLAYING = OFFER_PASSES, OFFER_PASSES + 1
MOST_TURNS = 60  # a play-out in which nobody knocks (a reshuffling stock) counts as a draw


class World:
    """One complete deal consistent with a view: both hands, the stock and the pile."""

    __slots__ = ("hands", "stock", "pile", "to_move", "knock_limit", "two_card_rule", "passes", "dealer")

    def __init__(self, hands, stock, pile, to_move, knock_limit, two_card_rule, dealer, passes=PLAYING):
        self.hands = hands  # [mask, mask]
        self.stock = stock  # card indices, top last
        self.pile = pile  # card indices, top last
        self.to_move = to_move
        self.knock_limit = knock_limit
        self.two_card_rule = two_card_rule
        self.dealer = dealer
        self.passes = passes  # upcard passes so far, or PLAYING once the offer is over


def best_discard(deadwoods, forbidden):
    """(card index, deadwood) of the discard leaving the least deadwood, never ``forbidden``."""
    best_card, best = NO_CARD, 1 << 30
    for card, deadwood in deadwoods.items():
        if deadwood < best and card != forbidden:
            best_card, best = card, deadwood
    return best_card, best


def joins_a_meld(hand, card):
    """Whether ``card`` forms a set or a run with cards of ``hand``."""
    rank = card % 13
    same_rank = (hand >> rank & 1) + (hand >> (rank + 13) & 1) + (hand >> (rank + 26) & 1) + (hand >> (rank + 39) & 1)
    return same_rank >= 2 or bool(run_cards(hand | 1 << card) >> card & 1)


def greedy_takes(hand, top):
    """Whether the greedy policy takes ``top``: it joins a meld and lowers the deadwood."""
    if not joins_a_meld(hand, top):
        return False
    _, after = best_discard(discard_deadwoods(hand | 1 << top), top)
    return after < least_deadwood(hand)


def finish_turn(world, seat, forbidden):
    """Discard or knock for ``seat`` after a draw. Returns the result, or None if play goes on."""
    hand = world.hands[seat]
    card, deadwood = best_discard(discard_deadwoods(hand), forbidden)
    return discard(world, seat, card, knock=deadwood <= world.knock_limit)


def discard(world, seat, card, knock):
    """Play a discard (or knock) in the world: (winner, points) once the hand ends, else None."""
    world.hands[seat] &= ~(1 << card)
    if knock:
        result = settle_knock(seat, world.hands, "")
        return result.winner, result.points
    world.pile.append(card)
    if world.two_card_rule and len(world.stock) == CLOSED_STOCK:
        return None, 0
    world.to_move = 1 - seat
    return None


def pass_upcard(world):
    world.passes += 1
    world.to_move = to_move_after_passes(world.dealer, world.passes)


def take_pile(world, seat):
    """Draw the top discard and discard or knock after it: the result, or None."""
    top = world.pile.pop()
    world.hands[seat] |= 1 << top
    world.passes = PLAYING
    return finish_turn(world, seat, top)


def take_stock(world, seat):
    """Draw from the stock and discard or knock after it: the result, or None."""
    draw_stock(world, seat)
    world.passes = PLAYING
    return finish_turn(world, seat, NO_CARD)


def draw_stock(world, seat):
    if not world.stock:
        world.stock = world.pile[:-1]
        world.pile = world.pile[-1:]
        # The shuffle of a reshuffled pile does not matter much here: reversing it is enough.
    card = world.stock.pop()
    world.hands[seat] |= 1 << card
    return card


def play_out(world):
    """Play the world to its end with the greedy policy: (winner, points); a draw is (None, 0)."""
    for _ in range(MOST_TURNS):
        seat = world.to_move
        if world.passes != BOTH_PASSED and greedy_takes(world.hands[seat], world.pile[-1]):
            ended = take_pile(world, seat)
        elif world.passes < BOTH_PASSED:
            pass_upcard(world)
            continue
        else:
            ended = take_stock(world, seat)
        if ended is not None:
            return ended
    return None, 0
