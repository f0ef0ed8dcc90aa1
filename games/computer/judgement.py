"""A sound player's judgement of discards and draws, one card ahead.

A discard is judged by the deadwood it leaves, by what the next draw from the stock is
expected to leave (so cards with live neighbours are kept), and by the chance it gives the
opponent a meld (so they are not fed). A draw from the pile is taken when it beats what the
stock is expected to give.
"""

import random

from games.engine.melds import arrangements, discard_deadwoods, least_deadwood, points
from games.engine.showdown import GIN_BONUS, UNDERCUT_BONUS, best_defence

from .inference import AT_MOST, joinable, knocks_after_stock
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
# Against a player who knocks at once, the knock-next term may count the showdown itself
# instead (far_discards' showdown_weight): in each of the first SHOWDOWN_HANDS sampled hands
# its knock after taking our discard, or after SHOWDOWN_DRAWS of the stock draws that let it
# knock, settled against the ten cards the discard leaves us (lay-offs and the undercut
# bonus counted). Only the SHOWDOWN_CANDIDATES best discards by the rest of the score are
# judged so (a bound on the work).
SHOWDOWN_HANDS = 30
SHOWDOWN_DRAWS = 2
SHOWDOWN_CANDIDATES = 4


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
        self._stock_knocks = None
        self._its_arrangements = {}
        self._feeds = {}
        unseen = cards_in(knowledge.unseen)
        in_stock = [(card, 1.0 - self.odds[card]) for card in unseen]
        total = sum(chance for _, chance in in_stock) or 1.0
        self.stock_odds = [(card, chance / total) for card, chance in in_stock if chance > 0]

    def expected_after_draw(self, hand):
        """The deadwood expected once a card is drawn from the stock and the best one shed."""
        now = least_deadwood(hand)
        expected = 0.0
        for card, chance in self.stock_odds:
            _, after = best_discard(discard_deadwoods(hand | 1 << card), -1)
            expected += chance * min(now, after)
        return expected

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

    def showdown_loss(self, hand, card):
        """The points we expect to lose (negative: to win) to the opponent's knock on its next
        turn once we throw ``card`` from ``hand``, by the first SHOWDOWN_HANDS sampled hands."""
        ours = hand & ~(1 << card)
        limit = self.knowledge.knock_limit
        hands = self.hands[:SHOWDOWN_HANDS]
        total = 0.0
        for theirs, joins, knocks in zip(hands, self.joinable(), self.stock_knocks()):
            if joins >> card & 1:
                after = discard_deadwoods(theirs | 1 << card, limit)
                after.pop(card, None)
                if after:
                    shed, _ = best_discard(after, card)
                    total += self._showdown(ours, (theirs | 1 << card) & ~(1 << shed))
            else:
                total += sum(chance * self._showdown(ours, knock) for chance, knock in knocks)
        return total / len(hands)

    def knock_value(self, ours):
        """The points we expect to win (negative: to lose) by knocking with the ten cards
        ``ours``, settled against the first SHOWDOWN_HANDS sampled hands (their lay-offs counted)."""
        options = arrangements(ours)
        mine = points(options[0][1])
        total = 0.0
        hands = self.hands[:SHOWDOWN_HANDS]
        for theirs in hands:
            if mine == 0:
                total += GIN_BONUS + least_deadwood(theirs)
                continue
            left = max(best_defence(melds, theirs)[0] for melds, _ in options)
            total += left - mine if mine < left else -(mine - left + UNDERCUT_BONUS)
        return total / len(hands)

    def stock_knocks(self):
        """Per sampled hand: [(chance, its ten cards once it knocks)] for up to SHOWDOWN_DRAWS of
        the stock draws that let it knock, their chances summing to that of any such draw."""
        if self._stock_knocks is None:
            knowledge = self.knowledge
            rng = random.Random(knowledge.mine ^ knowledge.unseen)
            self._stock_knocks = []
            for theirs in self.hands[:SHOWDOWN_HANDS]:
                knocks = _knocks_after_draws(theirs, knowledge.unseen & ~theirs, knowledge.knock_limit)
                kept = rng.sample(knocks, min(SHOWDOWN_DRAWS, len(knocks)))
                share = len(knocks) / ((knowledge.unseen & ~theirs).bit_count() * len(kept)) if kept else 0.0
                self._stock_knocks.append([(share, knock) for knock in kept])
        return self._stock_knocks

    def _showdown(self, ours, theirs):
        """The points we lose (negative: win) when the opponent knocks holding ``theirs``."""
        options = self._its_arrangements.get(theirs)
        if options is None:
            options = self._its_arrangements[theirs] = arrangements(theirs)
        its = points(options[0][1])
        if its == 0:
            return GIN_BONUS + least_deadwood(ours)
        # As the engine settles it: the knocker's arrangement that leaves us the most.
        left = max(best_defence(melds, ours)[0] for melds, _ in options)
        return left - its if its < left else -(its - left + UNDERCUT_BONUS)

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
        draws = [(best_discard(discard_deadwoods(hand | 1 << card), -1)[1], chance) for card, chance in self.stock_odds]
        best = sorted(after for after, _ in draws)[:FUTURE_BEST]
        gin = sum(chance for after, chance in draws if after == 0)
        return (sum(best) / len(best) if best else float(least_deadwood(hand))), gin

    def far_discards(self, hand, turn, forbidden=-1, future_weight=FUTURE_WEIGHT, gin_weight=0.0, knock_weight=0.0, showdown_weight=0.0):
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
        if showdown_weight and self.hands:
            best = [(score + showdown_weight * self.showdown_loss(hand, card), card, deadwood) for score, card, deadwood in judged[:SHOWDOWN_CANDIDATES]]
            judged = sorted(best) + judged[SHOWDOWN_CANDIDATES:]
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


def _knocks_after_draws(hand, stock, knock_limit):
    """The ten cards ``hand`` (more than the knock limit) knocks with after each draw from
    ``stock`` that lets it knock, shedding the card that leaves the least deadwood."""
    rest = discard_deadwoods(hand)
    shed, least_of_nine = best_discard(rest, -1)
    joins = joinable(hand) & stock
    knocks = []
    room = knock_limit - least_of_nine
    if room >= 0:
        # A card that joins no meld adds its value to the best nine cards.
        nine = hand & ~(1 << shed)
        knocks += [nine | 1 << card for card in cards_in(stock & ~joins & AT_MOST[min(room, 10)])]
    for card in cards_in(joins):
        after = discard_deadwoods(hand | 1 << card, knock_limit)
        if after:
            drop, _ = best_discard(after, -1)
            knocks.append((hand | 1 << card) & ~(1 << drop))
    return knocks
