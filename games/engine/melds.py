"""The exact meld solver, on 52-bit card masks.

Given which sets a hand forms, the best runs are forced: every stretch of three or more
neighbouring cards of a suit is one run, and no other card can be in a run. So the least
deadwood is a minimum over the hand's choices of sets only, a few dozen at most (a rank with
four cards offers no set, one of four sets of three, or the set of four).
"""

from itertools import product

from .cards import RANK_VALUES, SUIT_BITS, cards_of, mask_of

# A run may start at ranks A..J of each suit; a start at Q or K would spill into the next suit.
RUN_STARTS = sum((((1 << 11) - 1) << (13 * suit)) for suit in range(4))


def _suit_points_table():
    table = [0] * (1 << 13)
    for bits in range(1, 1 << 13):
        low = bits & -bits
        table[bits] = table[bits ^ low] + RANK_VALUES[low.bit_length() - 1]
    return table


_SUIT_POINTS = _suit_points_table()


def points(mask):
    """The deadwood value of the cards in mask."""
    table = _SUIT_POINTS
    return table[mask & SUIT_BITS] + table[mask >> 13 & SUIT_BITS] + table[mask >> 26 & SUIT_BITS] + table[mask >> 39]


def run_cards(mask):
    """The cards of mask that runs can use: every stretch of three or more of a suit."""
    starts = mask & (mask >> 1) & (mask >> 2) & RUN_STARTS
    return starts | (starts << 1) | (starts << 2)


def split_runs(mask):
    """The maximal runs in a mask of run cards, each as a mask, lowest first."""
    runs = []
    while mask:
        low = mask & -mask
        # Adding the lowest bit carries through the whole stretch above it.
        stretch = mask & ~(mask + low)
        # A stretch may not continue from a king into the next suit's ace.
        end_suit = (low.bit_length() - 1) // 13
        stretch &= SUIT_BITS << (13 * end_suit)
        runs.append(stretch)
        mask ^= stretch
    return runs


def _rank_mask(rank, suits):
    return sum(1 << (13 * suit + rank) for suit in suits)


def _set_choices_table():
    """For each rank and each pattern of suits held (4 bits), the set masks one may form."""
    table = []
    for rank in range(13):
        by_pattern = []
        for pattern in range(16):
            held = [suit for suit in range(4) if pattern >> suit & 1]
            choices = [0]
            if len(held) == 4:
                choices += [_rank_mask(rank, held[:i] + held[i + 1:]) for i in range(4)]
            if len(held) >= 3:
                choices.append(_rank_mask(rank, held))
            by_pattern.append(tuple(choices))
        table.append(by_pattern)
    return table


_SET_CHOICES = _set_choices_table()


def set_ranks(mask):
    """A 13-bit mask of the ranks of which the hand holds three or four cards."""
    clubs, diamonds = mask & SUIT_BITS, mask >> 13 & SUIT_BITS
    hearts, spades = mask >> 26 & SUIT_BITS, mask >> 39
    return (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))


def set_choices(mask):
    """For each rank that can form a set, the tuple of set masks to choose from (0: none)."""
    ranks = set_ranks(mask)
    choices = []
    while ranks:
        low = ranks & -ranks
        rank = low.bit_length() - 1
        ranks ^= low
        pattern = (mask >> rank & 1) | (mask >> (rank + 12) & 2) | (mask >> (rank + 24) & 4) | (mask >> (rank + 36) & 8)
        choices.append(_SET_CHOICES[rank][pattern])
    return choices


def set_unions(mask):
    """The union of sets of every choice of sets the hand allows (0, no set, included)."""
    unions = [0]
    for choices in set_choices(mask):
        unions = [union | choice for union in unions for choice in choices]
    return unions


def least_deadwood(mask):
    """The least deadwood any arrangement of the cards in mask leaves."""
    best = 1 << 30
    for sets in set_unions(mask):
        rest = mask ^ sets
        deadwood = points(rest & ~run_cards(rest))
        if deadwood < best:
            best = deadwood
    return best


def discard_deadwoods(mask):
    """For each card index of mask, the least deadwood of the other cards.

    A card that an arrangement leaves as deadwood can go without touching its melds, so only
    cards in runs need the runs worked out again.
    """
    best = {}
    for sets in set_unions(mask):
        rest = mask ^ sets
        runs = run_cards(rest)
        loose = rest & ~runs
        deadwood = points(loose)
        _lower(best, loose, lambda low: deadwood - points(low))
        _lower(best, runs, lambda low: _runs_deadwood(rest ^ low))
    return best


def _runs_deadwood(rest):
    return points(rest & ~run_cards(rest))


def _lower(best, cards, deadwood_without):
    while cards:
        low = cards & -cards
        cards ^= low
        index = low.bit_length() - 1
        deadwood = deadwood_without(low)
        if deadwood < best.get(index, 1 << 30):
            best[index] = deadwood


def arrangements(mask):
    """Every arrangement with the least deadwood, as (melds, deadwood mask), melds as masks.

    Runs of six or more are kept whole: splitting one changes no lay-off.
    """
    found, best = [], 1 << 30
    for sets in product(*set_choices(mask)):
        rest = mask ^ sum(sets)
        runs = run_cards(rest)
        deadwood = points(rest & ~runs)
        if deadwood < best:
            found, best = [], deadwood
        if deadwood == best:
            melds = [meld for meld in sets if meld] + split_runs(runs)
            found.append((melds, rest & ~runs))
    return found


def best_melds(cards):
    """An arrangement of the cards with the least deadwood: (melds, deadwood cards).

    >>> from games.engine import parse_cards
    >>> melds, deadwood = best_melds(parse_cards("7S 7H 7D 7C 8C 9C 2D 3D 4D KH"))
    >>> [" ".join(map(str, meld)) for meld in melds], deadwood
    (['7D 7H 7S', '7C 8C 9C', '2D 3D 4D'], [Card('KH')])
    """
    melds, deadwood = arrangements(mask_of(cards))[0]
    return [cards_of(meld) for meld in melds], cards_of(deadwood)


def deadwood_points(cards):
    """The least deadwood of all the given cards.

    >>> from games.engine import parse_cards
    >>> deadwood_points(parse_cards("AS 2S 3S 4S 5C 5D 5H KC KD QH"))
    30
    """
    return least_deadwood(mask_of(cards))
