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

from games.engine.cards import RANK_VALUES, Card
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


FULL_DECK = (1 << 52) - 1
PARTICLES = 400


def track(history, upcard, seat, mine, knock_limit, samples, seed, particles=PARTICLES):
    """Up to ``samples`` opponent hands drawn from the hands a fast knocker could hold now, given
    every move of its this hand (a particle filter over the hand, from the deal): each particle
    deals it ten cards it could have been dealt and replays the hand's public moves, drawing for
    its stock draws, and weighs each of its moves by the chance a fast knocker makes it:

    - it takes the face-up card if and only if the card joins a meld of its hand;
    - it sheds one of the cards that leave its eleven the least deadwood, each as likely (never
      the card just taken);
    - it knocks as soon as it may, so every discard left more than the knock limit.

    The cards it could have been dealt or drawn: none we held other than from the pile (our
    deal and our stock draws, ``mine`` and our discards), and not the upcard. Empty if no
    particle survives (a player who does not play so). A screening draft, not wired into the
    players: docs/computer.md, seventeenth pass."""
    rng = random.Random(seed)
    pile = [upcard]
    ours, our_takes = mine, 0
    for who, move in history:
        verb, _, code = move.partition(" ")
        if verb == "pile":
            taken = pile.pop()
            if who == seat:
                our_takes |= 1 << taken
        elif verb in ("discard", "knock"):
            card = Card.from_code(code).index
            pile.append(card)
            if who == seat:
                ours |= 1 << card
    ours &= ~our_takes
    # ``ours`` is now every card we held that did not come from the pile, bar those we took
    # from the pile: none of them was ever the opponent's.
    dealable = cards_in(FULL_DECK & ~ours & ~(1 << upcard))
    hands = [_deal(rng, dealable) for _ in range(particles)]
    weights = [1.0] * particles
    seen = 1 << upcard  # cards that have been face up
    pile = [upcard]
    drew_stock = False
    taken = -1
    for who, move in history:
        verb, _, code = move.partition(" ")
        theirs = who != seat
        if verb in ("pass", "stock"):
            if theirs:
                if pile:
                    top = pile[-1]
                    weights = [w if w and not joins_a_meld(h, top) else 0.0 for h, w in zip(hands, weights)]
                drew_stock = verb == "stock"
                taken = -1
        elif verb == "pile":
            top = pile.pop()
            if theirs:
                weights = [w if w and joins_a_meld(h, top) else 0.0 for h, w in zip(hands, weights)]
                hands = [h | 1 << top for h in hands]
                drew_stock, taken = False, top
        else:
            card = Card.from_code(code).index
            if theirs:
                hands, weights = _shed(rng, hands, weights, card, drew_stock, taken, ours | seen, verb == "knock", knock_limit)
                drew_stock, taken = False, -1
            pile.append(card)
            seen |= 1 << card
        if not any(weights):
            return []
        hands, weights = _resampled(rng, hands, weights)
    total = sum(weights)
    return [hands[i] for i in _systematic(rng, weights, total, samples)]




def _deal(rng, cards):
    hand = 0
    for card in rng.sample(cards, 10):
        hand |= 1 << card
    return hand


def _shed(rng, hands, weights, card, drew_stock, taken, not_stock, knocked, knock_limit):
    """Each particle's eleven cards and the weight of shedding ``card`` from them."""
    new_hands, new_weights = [], []
    for hand, weight in zip(hands, weights):
        if weight and drew_stock:
            stock = FULL_DECK & ~(not_stock | hand)
            size = stock.bit_count()
            if hand >> card & 1:
                cards = cards_in(stock)
                hand |= 1 << cards[int(rng.random() * len(cards))] if cards else 0
            elif stock >> card & 1:
                hand |= 1 << card
                weight /= size
            else:
                weight = 0.0
        if weight and not hand >> card & 1:
            weight = 0.0
        if weight:
            deadwoods = discard_deadwoods(hand)
            least = min(d for c, d in deadwoods.items() if c != taken)
            ties = sum(1 for c, d in deadwoods.items() if d == least and c != taken)
            if deadwoods[card] != least or card == taken or (not knocked and least <= knock_limit):
                weight = 0.0
            else:
                weight /= ties
        new_hands.append(hand & ~(1 << card))
        new_weights.append(weight)
    return new_hands, new_weights


def _resampled(rng, hands, weights):
    """The particles resampled to even weights once too few carry the weight."""
    total = sum(weights)
    effective = total * total / sum(w * w for w in weights)
    if effective >= len(hands) / 3:
        return hands, [w / total for w in weights]
    chosen = _systematic(rng, weights, total, len(hands))
    return [hands[i] for i in chosen], [1.0] * len(hands)


def _systematic(rng, weights, total, count):
    step = total / count
    point = rng.random() * step
    chosen, cumulative, index = [], weights[0], 0
    for _ in range(count):
        while cumulative < point and index < len(weights) - 1:
            index += 1
            cumulative += weights[index]
        chosen.append(index)
        point += step
    return chosen
