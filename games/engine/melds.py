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


def points(mask):
    """The deadwood value of the cards in mask."""
    table = _SUIT_POINTS
    return table[mask & SUIT_BITS] + table[mask >> 13 & SUIT_BITS] + table[mask >> 26 & SUIT_BITS] + table[mask >> 39]


def run_cards(mask):
    """The cards of mask that runs can use: every stretch of three or more of a suit."""
    starts = mask & (mask >> 1) & (mask >> 2) & RUN_STARTS
    return starts | (starts << 1) | (starts << 2)


# Tables over the 8192 masks of one suit ---------------------------------------------------


def _suit_cards_table():
    """For each 13-bit mask of one suit, its cards as (rank, bit), highest first."""
    table = [()] * (1 << 13)
    for bits in range(1, 1 << 13):
        low = bits & -bits
        table[bits] = ((low.bit_length() - 1, low),) + table[bits ^ low]
    return table


_SUIT_CARDS = _suit_cards_table()
# The deadwood value of the cards of one suit.
_SUIT_POINTS = [sum(RANK_VALUES[rank] for rank, _ in cards) for cards in _SUIT_CARDS]
# The value of the cards of one suit that no run can use.
_LOOSE_POINTS = [_SUIT_POINTS[bits & ~run_cards(bits)] for bits in range(1 << 13)]


def loose_points(mask):
    """The deadwood of mask when it forms runs only (no sets): four table look-ups."""
    table = _LOOSE_POINTS
    return table[mask & SUIT_BITS] + table[mask >> 13 & SUIT_BITS] + table[mask >> 26 & SUIT_BITS] + table[mask >> 39]


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
    """The sets worth trying for a rank, by the suits held and the suits that runs could use.

    A card no run can use is always better in the set: so a rank none of whose cards fits a
    run forms its full set, and a set of three may leave out only a card that fits a run.
    Only strictly worse choices are dropped, so every least-deadwood arrangement remains.
    """
    table = []
    for rank in range(13):
        table.append([[_rank_choices(rank, held, runnable) for runnable in range(16)] for held in range(16)])
    return table


def _rank_choices(rank, held_pattern, runnable_pattern):
    held = [suit for suit in range(4) if held_pattern >> suit & 1]
    if len(held) < 3:
        return ()
    full = _rank_mask(rank, held)
    if not runnable_pattern & held_pattern:
        return (full,)
    leave_one_out = [full & ~_rank_mask(rank, [suit]) for suit in held if runnable_pattern >> suit & 1]
    return (0, full) + (tuple(leave_one_out) if len(held) == 4 else ())


_SET_CHOICES = _set_choices_table()


def set_choices(mask):
    """For each rank that can form a set, the tuple of set masks worth trying (0: no set)."""
    clubs, diamonds, hearts, spades = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    ranks = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    if not ranks:
        return []
    runnable = run_cards(mask)
    choices = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        # Which suits of this rank are held, and which of those a run could use, as 4 bits.
        held = (mask >> rank & 1) | (mask >> (rank + 12) & 2) | (mask >> (rank + 24) & 4) | (mask >> (rank + 36) & 8)
        runs = (runnable >> rank & 1) | (runnable >> (rank + 12) & 2) | (runnable >> (rank + 24) & 4) | (runnable >> (rank + 36) & 8)
        choices.append(_SET_CHOICES[rank][held][runs])
    return choices


def set_unions(mask):
    """The union of the sets of every choice of sets worth trying."""
    unions = [0]
    for choices in set_choices(mask):
        unions = [union | choice for union in unions for choice in choices]
    return unions


def least_deadwood(mask):
    """The least deadwood any arrangement of the cards in mask leaves."""
    return min(loose_points(mask ^ sets) for sets in set_unions(mask))


NO_LIMIT = 1 << 30
# The most one discard can lower a deadwood count: the value of a ten or a face card.
MOST_ONE_CARD_SAVES = 10


def discard_deadwoods(mask, limit=NO_LIMIT):
    """For each card index of mask, the least deadwood of the other cards (with a ``limit``,
    only the discards that leave at most that much: the legal knocks).

    For each choice of sets, a discard from the rest changes only its own suit. So per suit
    and per distinct rest of that suit, only the least deadwood of the other suits matters,
    and each card's discard is one table look-up away. A card of a chosen set leaves the other
    three as a set, or the other two as deadwood.
    """
    table = _LOOSE_POINTS
    ceiling = limit + MOST_ONE_CARD_SAVES
    # Per suit: the rest of that suit -> the least deadwood of the other three suits with it.
    clubs, diamonds, hearts, spades = {}, {}, {}, {}
    by_set = {}  # set mask -> the least deadwood of a choice of sets that includes it
    for sets in product(*set_choices(mask)):
        rest = mask ^ sum(sets)
        c, d, h, s = rest & SUIT_BITS, rest >> 13 & SUIT_BITS, rest >> 26 & SUIT_BITS, rest >> 39
        loose_c, loose_d, loose_h, loose_s = table[c], table[d], table[h], table[s]
        total = loose_c + loose_d + loose_h + loose_s
        if total > ceiling:
            continue
        # Unrolled over the suits: this loop is the hot path of knock checking.
        if total - loose_c < clubs.get(c, NO_LIMIT):
            clubs[c] = total - loose_c
        if total - loose_d < diamonds.get(d, NO_LIMIT):
            diamonds[d] = total - loose_d
        if total - loose_h < hearts.get(h, NO_LIMIT):
            hearts[h] = total - loose_h
        if total - loose_s < spades.get(s, NO_LIMIT):
            spades[s] = total - loose_s
        for meld in sets:
            if meld and total < by_set.get(meld, NO_LIMIT):
                by_set[meld] = total
    best = _discards_from_the_rest((clubs, diamonds, hearts, spades), limit)
    if by_set:
        _lower_for_sets(best, by_set, limit)
    return best


def _discards_from_the_rest(others, limit):
    table, cards, best = _LOOSE_POINTS, _SUIT_CARDS, {}
    for offset, by_bits in zip((0, 13, 26, 39), others):
        for bits, other in by_bits.items():
            if other > limit:
                continue
            for rank, low in cards[bits]:
                deadwood = other + table[bits ^ low]
                if deadwood <= limit and deadwood < best.get(offset + rank, NO_LIMIT):
                    best[offset + rank] = deadwood
    return best


def _lower_for_sets(best, by_set, limit):
    """Discarding a card of a set leaves a set of three, or two cards of deadwood."""
    for meld, total in by_set.items():
        value = RANK_VALUES[((meld & -meld).bit_length() - 1) % 13]
        deadwood = total if meld.bit_count() == 4 else total + 2 * value
        while meld:
            low = meld & -meld
            meld ^= low
            index = low.bit_length() - 1
            if deadwood <= limit and deadwood < best.get(index, NO_LIMIT):
                best[index] = deadwood


def arrangements(mask):
    """Every arrangement with the least deadwood, as (melds, deadwood mask), melds as masks.

    Runs of six or more are kept whole: splitting one changes no lay-off.
    """
    found, best = [], 1 << 30
    for sets in product(*set_choices(mask)):
        rest = mask ^ sum(sets)
        runs = run_cards(rest)
        deadwood = loose_points(rest)
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
