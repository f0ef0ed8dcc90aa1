"""A sound player's judgement of discards and draws, one card ahead.

A discard is judged by the deadwood it leaves, by what the next draw from the stock is
expected to leave (so cards with live neighbours are kept), and by the chance it gives the
opponent a meld (so they are not fed). A draw from the pile is taken when it beats what the
stock is expected to give.
"""

from games.engine.melds import discard_deadwoods, least_deadwood

from .inference import after_each_draw, joinable, knocks_after_stock
from .knowledge import NEIGHBOURS, cards_in
from .rollout import best_discard

# A discard's score mixes the deadwood it leaves now with the deadwood expected after the
# next stock draw; feeding the opponent a meld costs about this much deadwood of ours.
# NOW_SHARE 0.4 -> 0.15 lifted the club from 56% to 60% against the baseline (400 games).
NOW_SHARE = 0.15
# Expert vs the baseline on the same 400 games (seed 2): FEED_COST 7 66.5%, 4.5 68.5%, 3 72.5%,
# 1.5 72.5%, 0 70.5%; at 2 on fresh deals (seed 3) 70.8% [66.1, 75.0].
FEED_COST = 2.0
# Only discards that leave at most this much more than the least deadwood are judged (a
# bound on the work, not tuned).
CANDIDATE_SPREAD = 8
# The pile's card is taken when it beats the stock's expectation by this much: taking it
# shows the opponent what we collect. (1, as the first cut set it, not tuned since.)
TAKE_MARGIN = 1.0


# The expert's discards look further: a discard is worth the deadwood it leaves plus the mean
# of the FUTURE_BEST least deadwoods that a draw could then leave (the outs a few draws may
# bring), weighted FUTURE_WEIGHT * FUTURE_DECAY ** (turn - 1) so that the hand's potential
# counts most early and its deadwood late. (MARJJ's discard rule, in the judge's odds; its
# published 7, 18 and 0.9, not tuned here.) Against MARJJ, 200 games, seed 3, in place of the
# club's one-card look-ahead: 42.0% -> 50.0% and 47.5% -> 59.5% (two knock schedules).
FUTURE_BEST = 7
FUTURE_WEIGHT = 18.0
FUTURE_DECAY = 0.9
# What feeding the opponent a meld costs, in that score's deadwood: a guess (MARJJ's penalties
# are 3 to 20), not tuned.
FUTURE_FEED_COST = 10.0
# The deadwood a player who knocks at once is taken to knock with (far_discards' knock_weight):
# our deadwood above it is what its knock costs us.
KNOCK_PAR = 6.0


class Judge:
    """Judges moves for one Knowledge; caches the stock odds it needs."""

    def __init__(self, knowledge, hands=(), prior_samples=0.0):
        """``hands``: opponent hands sampled to fit what it did (inference.py), if any: the chance
        a discard feeds it and that it knocks next are then read from them, mixed with the
        Knowledge's odds as if those were ``prior_samples`` hands more."""
        self.knowledge = knowledge
        self.odds = knowledge.opponent_odds()
        self.hands = hands
        self.prior_samples = prior_samples
        self._joinable = None
        self._knocks_after_stock = None
        self._feeds = {}
        unseen = cards_in(knowledge.unseen)
        in_stock = [(card, 1.0 - self.odds[card]) for card in unseen]
        total = sum(chance for _, chance in in_stock) or 1.0
        self.stock_odds = [(card, chance / total) for card, chance in in_stock if chance > 0]
        self._stock_cards = [card for card, _ in self.stock_odds]

    def expected_after_draw(self, hand):
        """The deadwood expected once a card is drawn from the stock and the best one shed."""
        afters = after_each_draw(hand, self._stock_cards)
        return sum(chance * after for (_, chance), after in zip(self.stock_odds, afters))

    def feeds(self, card):
        """The chance the opponent holds two cards that meld with ``card``."""
        if card in self._feeds:
            return self._feeds[card]
        chance = self._independent_feeds(card)
        if self.hands:
            joins = sum(1 for mask in self.joinable() if mask >> card & 1)
            chance = (self.prior_samples * chance + joins) / (self.prior_samples + len(self.hands))
        self._feeds[card] = chance
        return chance

    def joinable(self):
        if self._joinable is None:
            self._joinable = [joinable(hand) for hand in self.hands]
        return self._joinable

    def knocks_next(self, card):
        """The chance the opponent (a player who knocks at once) knocks on its next turn once we
        throw ``card``, by the sampled hands: it takes the card if it joins a meld, else draws."""
        if not self.hands:
            return 0.0
        knowledge = self.knowledge
        limit = knowledge.knock_limit
        if self._knocks_after_stock is None:
            unseen = knowledge.unseen
            self._knocks_after_stock = [knocks_after_stock(hand, unseen & ~hand, limit) for hand in self.hands]
        total = 0.0
        for hand, joins, after_stock in zip(self.hands, self.joinable(), self._knocks_after_stock):
            if joins >> card & 1:
                total += any(other != card for other in discard_deadwoods(hand | 1 << card, limit))
            else:
                total += after_stock
        return total / len(self.hands)

    def _independent_feeds(self, card):
        odds = self.odds
        close, near = NEIGHBOURS[card]
        same_rank = close[:3]
        miss = 1.0
        # A set: two of the other three of the rank.
        a, b, c = (odds[other] for other in same_rank)
        miss *= 1.0 - (a * b + a * c + b * c - 2 * a * b * c)
        below = [n for n in close[3:] if n < card]
        above = [n for n in close[3:] if n > card]
        below2 = [n for n in near if n < card]
        above2 = [n for n in near if n > card]
        for first, second in ((below2, below), (below, above), (above, above2)):
            if first and second:
                miss *= 1.0 - odds[first[0]] * odds[second[0]]
        return 1.0 - miss

    def outs(self, hand):
        """(the mean of the FUTURE_BEST least deadwoods one stock draw can leave ``hand``, the
        chance that draw leaves gin)."""
        afters = after_each_draw(hand, self._stock_cards)
        best = sorted(afters)[:FUTURE_BEST]
        gin = sum(chance for (_, chance), after in zip(self.stock_odds, afters) if after == 0)
        return (sum(best) / len(best) if best else float(least_deadwood(hand))), gin

    def far_discards(self, hand, turn, forbidden=-1, future_weight=FUTURE_WEIGHT, gin_weight=0.0, knock_weight=0.0):
        """[(score, card, deadwood)] judged by what the hand may become, best (lowest) first;
        ``gin_weight`` is what a sure gin on the next draw is worth, in that score's deadwood;
        ``knock_weight`` what a point of deadwood above KNOCK_PAR costs if the opponent knocks
        on its next turn (knocks_next)."""
        deadwoods = discard_deadwoods(hand)
        least = min(deadwood for card, deadwood in deadwoods.items() if card != forbidden)
        weight = future_weight * FUTURE_DECAY ** max(0, turn - 1)
        judged = []
        for card, deadwood in deadwoods.items():
            if card == forbidden or deadwood > least + CANDIDATE_SPREAD:
                continue
            outs, gin = self.outs(hand & ~(1 << card))
            score = deadwood + weight * outs - gin_weight * gin + FUTURE_FEED_COST * self.feeds(card)
            if knock_weight:
                score += knock_weight * self.knocks_next(card) * (deadwood - KNOCK_PAR)
            judged.append((score, card, deadwood))
        judged.sort()
        return judged

    def discards(self, hand, forbidden=-1):
        """[(score, card, deadwood)] for the discards worth judging, best (lowest) first."""
        deadwoods = discard_deadwoods(hand)
        least = min(deadwood for card, deadwood in deadwoods.items() if card != forbidden)
        judged = []
        for card, deadwood in deadwoods.items():
            if card == forbidden or deadwood > least + CANDIDATE_SPREAD:
                continue
            rest = hand & ~(1 << card)
            score = NOW_SHARE * deadwood + (1 - NOW_SHARE) * self.expected_after_draw(rest) + FEED_COST * self.feeds(card)
            judged.append((score, card, deadwood))
        judged.sort()
        return judged

    def take_gain(self, hand, top):
        """How much better taking ``top`` leaves the hand than the stock is expected to."""
        _, after_take = best_discard(discard_deadwoods(hand | 1 << top), top)
        return self.expected_after_draw(hand) - after_take - TAKE_MARGIN
