"""A sharper guess at the opponent's hand: sampled hands kept only if they fit what it did.

The Knowledge weighs each unseen card by heuristic factors (TOOK_* / LET_GO_*), one card at a
time. Against a player read as knocking at once (``knocks_at_once`` in players.py: the baseline
SimpleGinRummyPlayer), what it did says much more about its hand as a whole:

- it discarded without knocking, so the ten cards it holds leave more than the knock limit;
- it sheds a card leaving the least deadwood of its eleven, so its last discard did (no card it
  holds is loose and worth more than that discard, unless it sits in a meld);
- it takes the face-up card when the card joins a meld of its hand, so a card it let go by did
  not, and the card it took did.

Hands are drawn from the Knowledge's weights (its known cards plus the unseen ones) and kept only
if they fit those facts (rejection sampling); the kept ones give the odds per card, the chance a
discard of ours joins one of its melds, and the chance it knocks on its next turn.
"""

import random

from games.engine.cards import RANK_VALUES
from games.engine.melds import discard_deadwoods, least_deadwood

from .knowledge import cards_in
from .rollout import joins_a_meld

RANK_OF = tuple(index % 13 for index in range(52))
VALUE_OF = tuple(RANK_VALUES[index % 13] for index in range(52))
# Cards whose rank is below the king / above the ace / at most a ten / at least a three: the
# cards a shift by one or two ranks keeps in their suit.
_BELOW_KING = sum(1 << i for i in range(52) if RANK_OF[i] < 12)
_ABOVE_ACE = sum(1 << i for i in range(52) if RANK_OF[i] > 0)
_BELOW_QUEEN = sum(1 << i for i in range(52) if RANK_OF[i] < 11)
_ABOVE_TWO = sum(1 << i for i in range(52) if RANK_OF[i] > 1)
_RANK_MASKS = tuple(sum(1 << (rank + 13 * suit) for suit in range(4)) for rank in range(13))
# AT_MOST[v]: the cards worth at most v deadwood (v from 0 to 10).
AT_MOST = tuple(sum(1 << i for i in range(52) if VALUE_OF[i] <= v) for v in range(11))


def joinable(hand):
    """The cards outside ``hand`` that join a meld with its cards (a set or a run)."""
    sets = 0
    for rank_mask in _RANK_MASKS:
        if (hand & rank_mask).bit_count() >= 2:
            sets |= rank_mask
    up1 = (hand & _BELOW_KING) << 1  # the card below is held
    up2 = (hand & _BELOW_QUEEN) << 2  # two below
    down1 = (hand & _ABOVE_ACE) >> 1  # the card above
    down2 = (hand & _ABOVE_TWO) >> 2  # two above
    runs = (up1 & up2) | (up1 & down1) | (down1 & down2)
    return (sets | runs) & ~hand


def hand_sampler(knowledge, unseen):
    """A function rng -> one opponent hand drawn by the Knowledge's weights (Efraimidis and
    Spirakis: each unseen card's key is u ** (1 / weight), the largest keys are its hand).

    Made once for the many draws of one guess: the exponents are worked out once, and the keys
    are sorted by position, not through a key function called for every card of every draw
    (some 1.2 times faster a draw). The random numbers drawn and the order of ties (``unseen``'s)
    are those of sorting ``unseen`` by key, so the guesses are the same.
    """
    exponents = [1.0 / knowledge.weights[card] if knowledge.weights[card] > 0 else 0.0 for card in unseen]
    positions = range(len(unseen))
    known, unknown = knowledge.opponent_known, knowledge.opponent_unknown

    def sample(rng):
        draw = rng.random
        keys = [draw() ** exponent if exponent else 0.0 for exponent in exponents]
        hand = known
        for position in sorted(positions, key=keys.__getitem__, reverse=True)[:unknown]:
            hand |= 1 << unseen[position]
        return hand

    return sample


def fits(knowledge, hand, last):
    """Whether a fast knocker holding ``hand`` would have done what the opponent did on its last
    turn. ``last``: (the card it let go by or -1, the card it took or -1, its discard or -1)."""
    let_go, took, thrown = last
    least = least_deadwood(hand)
    if thrown < 0:
        # It has not discarded this hand: only a card it let go by (an upcard pass) speaks.
        return let_go < 0 or not joins_a_meld(hand, let_go)
    if least <= knowledge.knock_limit:
        return False  # it would have knocked
    before = hand | 1 << thrown  # its eleven cards before the discard
    lower = discard_deadwoods(before, least - 1) if least > 0 else {}
    if any(card != took for card in lower):
        return False  # another discard would have left less deadwood
    if took >= 0:
        # The card it took joined a meld of the ten cards it held then.
        return joins_a_meld(before & ~(1 << took), took)
    if let_go >= 0 and joins_a_meld(before, let_go):
        # The card it let go by may still have joined a meld only through the card it drew.
        known = knowledge.opponent_known
        return any(not joins_a_meld(before & ~(1 << drawn), let_go) for drawn in cards_in(before & ~known))
    return True


def infer(knowledge, last, seed, samples, tries):
    """Up to ``samples`` opponent hands that fit ``last`` (see ``fits``), from at most ``tries``
    draws; deterministic in ``seed``."""
    rng = random.Random(seed)
    sample_hand = hand_sampler(knowledge, cards_in(knowledge.unseen))
    kept = []
    for _ in range(tries):
        hand = sample_hand(rng)
        if fits(knowledge, hand, last):
            kept.append(hand)
            if len(kept) >= samples:
                break
    return kept


def posterior_odds(hands, prior_odds, prior_samples):
    """Per card: the chance the opponent holds it, the kept hands' share mixed with the prior
    odds as if they were ``prior_samples`` hands more."""
    counts = [0] * 52
    for hand in hands:
        for card in cards_in(hand):
            counts[card] += 1
    total = prior_samples + len(hands)
    return [(prior_samples * prior_odds[card] + counts[card]) / total for card in range(52)]


def after_each_draw(hand, cards):
    """For each card of ``cards`` (indices outside ``hand``): the least deadwood ``hand`` leaves
    once it draws that card and sheds the best one (the drawn card itself included).

    A card that joins no meld of the hand stays loose whatever is shed, so it leaves either the
    hand as it was or its own value on top of the best nine cards: only the cards that join a
    meld need the meld solver, which makes this some three times faster than solving each draw.
    """
    now = least_deadwood(hand)
    best_nine = min(discard_deadwoods(hand).values())
    joins = joinable(hand)
    after = []
    for card in cards:
        if joins >> card & 1:
            after.append(min(discard_deadwoods(hand | 1 << card).values()))
        else:
            after.append(min(now, VALUE_OF[card] + best_nine))
    return after


def knocks_after_stock(hand, stock, knock_limit):
    """The chance that ``hand`` (ten cards, more than the knock limit) can knock after a draw
    from ``stock`` (a mask, every card as likely)."""
    size = stock.bit_count()
    if not size:
        return 0.0
    rest = discard_deadwoods(hand)
    least_of_nine = min(rest.values())
    joins = joinable(hand) & stock
    # A card that joins no meld leaves its own value added to the best nine cards, or itself shed.
    room = knock_limit - least_of_nine
    count = (stock & ~joins & AT_MOST[min(room, 10)]).bit_count() if room >= 0 else 0
    for card in cards_in(joins):
        if discard_deadwoods(hand | 1 << card, knock_limit):
            count += 1
    return count / size
