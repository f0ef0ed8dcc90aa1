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

``track`` reads the same facts from every turn of the hand, not the last one only: a particle
filter over the paths its hand may have taken since the deal, each weighed by the chance such a
player makes the moves it made.
"""

import math
import random
import threading
from collections import OrderedDict

from games.engine.cards import RANK_VALUES, Card
from games.engine.melds import discard_deadwoods, least_deadwood

from .knowledge import FULL_DECK, cards_in
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


# Metropolis moves a particle after each resampling (3, as the first draft set them, not tuned).
TRACK_MOVES = 3
# Filters kept for the hands in play (one a hand: the latest replaces the one it resumed from;
# some 250 KB each at 1,000 particles, so 32 MB at most), and reads remembered (some 6 KB each),
# so that the same view reads the same in this process.
FILTERS_KEPT = 128
READS_KEPT = 1024
# The most events a decision's Metropolis moves may replay, per particle (late in a hand each
# move replays the whole hand so far), or None for no cap. Off until a paired run shows the cap
# keeps the expert's strength (docs/computer.md, issue 47 goal 4): 90 halves the slowest reads.
TRACK_STEPS_PER_PARTICLE = None


def track(history, upcard, seat, mine, knock_limit, samples, seed, particles):
    """Up to ``samples`` opponent hands a fast knocker could hold now, given every move of its
    this hand: a particle filter over its hand from the deal (resample-move). Each particle is a
    whole path, its ten dealt cards and its stock draws; its moves weigh it by the chance a fast
    knocker makes them (it takes the face-up card if and only if the card joins a meld of its
    hand; it sheds one of the cards that leave its eleven the least deadwood, each as likely,
    never the card just taken; every discard left more than the knock limit). A stock draw
    followed by the throw of a card the particle does not hold draws that card (weighed by its
    chance). After each resampling, Metropolis moves swap one dealt card for another it could
    have been dealt, judged by replaying the hand so far, so that the particles do not all
    descend from a few deals. Cards it could have been dealt or drawn: none we held other than
    from the pile (our deal and our stock draws), and not the upcard. Empty if no particle
    survives.

    The filter of the hand so far is kept between decisions, so a decision reads only the moves
    since the last one (a card we drew since rules out the particles that hold it), and each
    read is remembered: the same view reads the same hands in this process. (A process that
    never saw the hand's earlier decisions builds the filter afresh: the same odds, other
    particles.)"""
    ours, events = _public_events(history, upcard, seat, mine)
    candidates = FULL_DECK & ~ours & ~(1 << upcard)
    moves = tuple(map(tuple, history))
    key = (seat, upcard, moves, candidates, seed, samples, particles)
    with _LOCK:
        if key in _READS:
            return list(_READS[key])
    if _ruled_out(seat, upcard, moves):
        return []
    rng = random.Random(seed)
    resumed_from, state = _resumed(moves, upcard, seat, candidates, particles)
    fresh = state is None
    if fresh:
        state = _dealt(rng, candidates, particles)
    state = _filtered(rng, state, events, candidates, knock_limit, particles, _step_cap(particles))
    hands = []
    if state is None and fresh:
        _rule_out(seat, upcard, moves)
    if state is not None:
        _keep((seat, upcard, moves), resumed_from, candidates, state)
        weights = state[3]
        most = max(weights)
        even = [math.exp(w - most) if w != -math.inf else 0.0 for w in weights]
        # Its own random numbers: a read resumed at this very view draws the same hands.
        hands = [state[2][j] for j in _systematic(random.Random(seed + 1), even, sum(even), samples)]
    with _LOCK:
        _READS[key] = tuple(hands)
        while len(_READS) > READS_KEPT:
            _READS.popitem(last=False)
    return hands


def _filtered(rng, state, events, candidates, knock_limit, particles, steps):
    """The filter after the events it has not read yet, or None if no particle is left; its
    Metropolis moves replay at most ``steps`` events in all."""
    deals, draws, hands, weights, took, done, chances = state
    for step in range(done, len(events)):
        event = events[step]
        if event[0] == "stock":
            following = events[step + 1] if step + 1 < len(events) else None
            for i in range(particles):
                if weights[i] != -math.inf:
                    weights[i] += _drawn(rng, event, following, deals[i], draws[i], hands, i, candidates)
            took = -1
        else:
            for i in range(particles):
                if weights[i] != -math.inf:
                    hands[i], chance = _step(hands[i], event, took, knock_limit)
                    if chance is None:
                        weights[i] = -math.inf
                    else:
                        weights[i] += chance
                        chances[i] += chance
            took = event[1] if event[0] == "pile" else -1 if event[0] == "throw" else took
        most = max(weights)
        if most == -math.inf:
            return None
        even = [math.exp(w - most) if w != -math.inf else 0.0 for w in weights]
        total = sum(even)
        if total * total / sum(w * w for w in even) < particles / 2:
            chosen = _systematic(rng, even, total, particles)
            deals, draws = [deals[j] for j in chosen], [list(draws[j]) for j in chosen]
            hands, chances = [hands[j] for j in chosen], [chances[j] for j in chosen]
            weights = [0.0] * particles
            allowed = min(particles * TRACK_MOVES, steps // (step + 1))
            steps -= allowed * (step + 1)
            for i in range(particles):
                moves = _share(allowed, particles, i)
                if moves:
                    deals[i], hand, chances[i] = _moved(rng, events[: step + 1], deals[i], draws[i], candidates, knock_limit, moves, chances[i])
                    if hand is not None:
                        hands[i] = hand
    if max(weights) == -math.inf:
        return None
    return deals, draws, hands, weights, took, len(events), chances


_FILTERS = OrderedDict()  # (seat, upcard, moves) -> (candidates, state)
_READS = OrderedDict()  # track's arguments -> the hands it read
_RULED_OUT = OrderedDict()  # (seat, upcard, moves) where a fresh filter found no particle
_LOCK = threading.Lock()


def _ruled_out(seat, upcard, moves):
    """Whether a filter built afresh found no particle at an earlier part of this hand's moves."""
    with _LOCK:
        return any((seat, upcard, moves[:length]) in _RULED_OUT for length in range(len(moves) + 1))


def _rule_out(seat, upcard, moves):
    """Remember that a fresh filter found no particle here: the opponent plays unlike a fast
    knocker this hand (a person, or MARJJ read as one), and building it again at each later
    decision would cost the whole filter for the same answer (the load benchmark's computer
    tables played 11 moves a second instead of 86 before this)."""
    with _LOCK:
        _RULED_OUT[(seat, upcard, moves)] = True
        while len(_RULED_OUT) > FILTERS_KEPT:
            _RULED_OUT.popitem(last=False)


def _keep(key, resumed_from, candidates, state):
    deals, draws, hands, weights, took, done, chances = state
    with _LOCK:
        _FILTERS.pop(resumed_from, None)
        _FILTERS[key] = (candidates, (list(deals), [list(d) for d in draws], list(hands), list(weights), took, done, list(chances)))
        while len(_FILTERS) > FILTERS_KEPT:
            _FILTERS.popitem(last=False)


def _resumed(moves, upcard, seat, candidates, particles):
    """(its key, a copy of the kept filter of the longest earlier part of this hand's moves), or
    (None, None); particles holding a card no longer a candidate (one we drew since) are ruled
    out."""
    with _LOCK:
        for length in range(len(moves), max(-1, len(moves) - 8), -1):
            key = (seat, upcard, moves[:length])
            kept = _FILTERS.get(key)
            if kept is not None:
                break
        else:
            return None, None
    kept_candidates, (deals, draws, hands, weights, took, done, chances) = kept
    if len(deals) != particles or candidates & ~kept_candidates:
        return None, None
    deals, draws, hands, weights = list(deals), [list(d) for d in draws], list(hands), list(weights)
    gone = kept_candidates & ~candidates
    for i in range(particles):
        if (deals[i] | _mask(draws[i])) & gone:
            weights[i] = -math.inf
    if max(weights) == -math.inf:
        return None, None
    return key, (deals, draws, hands, weights, took, done, list(chances))


def _dealt(rng, candidates, particles):
    """A fresh filter: each particle dealt ten of the candidates, as likely as any."""
    dealable = cards_in(candidates)
    deals = []
    for _ in range(particles):
        deal = 0
        for card in rng.sample(dealable, 10):
            deal |= 1 << card
        deals.append(deal)
    return deals, [[] for _ in range(particles)], list(deals), [0.0] * particles, -1, 0, [0.0] * particles


def _drawn(rng, event, following, deal, draws, hands, i, candidates):
    """Draw particle ``i``'s stock card (into ``draws`` and ``hands``); the log of the weight."""
    pool = candidates & ~deal & ~_mask(draws)
    if following and following[0] == "throw" and not hands[i] >> following[1] & 1:
        card = following[1]
        if not pool >> card & 1:
            return -math.inf
        weight = -math.log(pool.bit_count())
    else:
        cards = cards_in(pool)
        if not cards:
            return -math.inf
        card, weight = cards[int(rng.random() * len(cards))], 0.0
    draws.append(card)
    hands[i] |= 1 << card
    return weight


def _public_events(history, upcard, seat, mine):
    """(every card we held that did not come from the pile (``mine``, our hand, and our throws,
    less what we took from the pile: the upcard or its throws), the opponent's moves as events:
    ("look", card, took it), ("stock",), ("pile", card), ("throw", card, knocked))."""
    pile = [upcard]
    ours, taken_by_us = mine, 0
    events = []
    for who, move in history:
        verb, _, code = move.partition(" ")
        theirs = who != seat
        if verb in ("pass", "stock"):
            if theirs and pile:
                events.append(("look", pile[-1], False))
            if theirs and verb == "stock":
                events.append(("stock",))
        elif verb == "pile":
            top = pile.pop()
            if theirs:
                events += [("look", top, True), ("pile", top)]
            else:
                taken_by_us |= 1 << top
        else:
            card = Card.from_code(code).index
            pile.append(card)
            if theirs:
                events.append(("throw", card, verb == "knock"))
            else:
                ours |= 1 << card
    return ours & ~taken_by_us, events


def _step(hand, event, took, knock_limit):
    """(the hand after ``event``, the log of a fast knocker's chance of it, None if nil)."""
    kind = event[0]
    if kind == "look":
        return hand, (0.0 if joins_a_meld(hand, event[1]) == event[2] else None)
    if kind == "pile":
        return hand | 1 << event[1], 0.0
    card, knocked = event[1], event[2]
    if not hand >> card & 1 or card == took:
        return hand, None
    rest = hand & ~(1 << card)
    left = least_deadwood(rest)
    if not knocked and left <= knock_limit:
        return hand, None
    ties = 0
    for other, deadwood in discard_deadwoods(hand, left).items():
        if other != took:
            if deadwood < left:
                return hand, None
            ties += 1
    return rest, -math.log(ties)


def _replayed(events, deal, draws, knock_limit):
    """(log chance, hand) of a path over ``events``."""
    hand, chance, took, drawn = deal, 0.0, -1, iter(draws)
    for event in events:
        if event[0] == "stock":
            hand |= 1 << next(drawn)
            took = -1
            continue
        hand, step = _step(hand, event, took, knock_limit)
        if step is None:
            return -math.inf, hand
        chance += step
        took = event[1] if event[0] == "pile" else -1 if event[0] == "throw" else took
    return chance, hand


def _moved(rng, events, deal, draws, candidates, knock_limit, moves, chance):
    """(deal, hand, log chance) after Metropolis moves that swap a dealt card for one it could
    have been dealt; ``chance``: the log chance of the path as it is."""
    hand = None
    free = cards_in(candidates & ~deal & ~_mask(draws))
    dealt = cards_in(deal & ~_kept_from_the_deal(events, draws))
    for _ in range(moves):
        if not free or not dealt:  # every dealt card was thrown: no swap keeps the path
            break
        out_at, in_at = int(rng.random() * len(dealt)), int(rng.random() * len(free))
        other = (deal & ~(1 << dealt[out_at])) | 1 << free[in_at]
        other_chance, other_hand = _replayed(events, other, draws, knock_limit)
        if other_chance != -math.inf and math.log(rng.random() or 1e-300) < other_chance - chance:
            deal, chance, hand = other, other_chance, other_hand
            dealt[out_at], free[in_at] = free[in_at], dealt[out_at]
    return deal, hand, chance


def _step_cap(particles):
    return math.inf if TRACK_STEPS_PER_PARTICLE is None else particles * TRACK_STEPS_PER_PARTICLE


def _share(total, count, i):
    """The ``i``-th of ``count`` near-equal shares of ``total`` (spread evenly, summing to it)."""
    return total * (i + 1) // count - total * i // count


def _kept_from_the_deal(events, draws):
    """The cards every path with these ``draws`` must have been dealt: those it throws that it
    neither drew nor took from the pile. A swap never deals them away (it could only fail), and
    the cards left to swap are as many before a swap as after, so the moves stay reversible."""
    thrown = taken = 0
    for event in events:
        if event[0] == "throw":
            thrown |= 1 << event[1]
        elif event[0] == "pile":
            taken |= 1 << event[1]
    return thrown & ~taken & ~_mask(draws)


def _mask(cards):
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _systematic(rng, weights, total, count):
    """``count`` indices drawn by ``weights`` (systematic resampling)."""
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
