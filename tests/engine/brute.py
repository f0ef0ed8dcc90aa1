"""A small, slow, obviously exact solver to check the engine's fast one against.

It lists every meld in the cards and tries every choice of disjoint melds; lay-offs are
tried one card at a time onto every meld they fit, in every order.
"""

from functools import lru_cache
from itertools import combinations


def value(card):
    return min(card.rank + 1, 10)


def all_melds(cards):
    cards = frozenset(cards)
    melds = []
    for rank in range(13):
        same = [card for card in cards if card.rank == rank]
        melds += [frozenset(group) for size in (3, 4) for group in combinations(same, size)]
    for suit in range(4):
        ranks = {card.rank: card for card in cards if card.suit == suit}
        for low in range(13):
            run = []
            for rank in range(low, 13):
                if rank not in ranks:
                    break
                run.append(ranks[rank])
                if len(run) >= 3:
                    melds.append(frozenset(run))
    return melds


def arrangements(cards):
    """Every choice of disjoint melds, as (melds, deadwood cards)."""
    cards = frozenset(cards)
    melds = all_melds(cards)
    found = []

    def choose(start, chosen, used):
        found.append((list(chosen), cards - used))
        for index in range(start, len(melds)):
            if not melds[index] & used:
                choose(index + 1, chosen + [melds[index]], used | melds[index])

    choose(0, [], frozenset())
    return found


def deadwood(cards):
    return min(sum(map(value, loose)) for _, loose in arrangements(cards))


def fits(card, meld):
    if len({c.rank for c in meld}) == 1:
        return len(meld) == 3 and card.rank == next(iter(meld)).rank
    suit = next(iter(meld)).suit
    ranks = [c.rank for c in meld]
    return card.suit == suit and card.rank in (min(ranks) - 1, max(ranks) + 1)


def defence(knocker_melds, defender):
    """The least deadwood the defender can keep, laying off in every possible way."""

    @lru_cache(maxsize=None)
    def search(melds, kept):
        best = deadwood(kept)
        for card in kept:
            for index, meld in enumerate(melds):
                if fits(card, meld):
                    grown = melds[:index] + (meld | {card},) + melds[index + 1:]
                    best = min(best, search(grown, kept - {card}))
        return best

    return search(tuple(frozenset(meld) for meld in knocker_melds), frozenset(defender))


def showdown(knocker, defender):
    """(winner as "knocker"/"defender", kind, points) of a knock with these 10-card hands."""
    options = arrangements(knocker)
    least = min(sum(map(value, loose)) for _, loose in options)
    if least == 0:
        return "knocker", "gin", 25 + deadwood(defender)
    best = [melds for melds, loose in options if sum(map(value, loose)) == least]
    kept = max(defence(melds, defender) for melds in best)
    if least < kept:
        return "knocker", "knock", kept - least
    return "defender", "undercut", least - kept + 25
