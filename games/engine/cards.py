"""Cards, their codes, and card sets as 52-bit masks.

A card's index is ``suit * 13 + rank`` (suits ``CDHS``, ranks ``A23456789TJQK``), so the
cards of one suit are 13 neighbouring bits and a run is a stretch of neighbouring bits.
"""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_BITS = (1 << 13) - 1

#: Deadwood value by rank: ace 1, two to ten their pips, J/Q/K 10.
RANK_VALUES = tuple(min(rank + 1, 10) for rank in range(13))


class Card:
    """One playing card. There is exactly one instance per card, so ``is`` and ``==`` agree.

    >>> card = Card.from_code("TD")
    >>> card
    Card('TD')
    >>> str(card), card.rank, card.suit, card.value
    ('TD', 9, 1, 10)
    >>> Card.from_code("1D")
    Traceback (most recent call last):
    ...
    ValueError: bad card code: '1D'
    """

    __slots__ = ("index", "_code")
    _all: list["Card"] = []

    def __new__(cls, index):
        if not isinstance(index, int) or not 0 <= index < 52:
            raise ValueError(f"bad card index: {index!r}")
        return cls._all[index]

    @classmethod
    def from_code(cls, code):
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise ValueError(f"bad card code: {code!r}") from None

    @property
    def rank(self):
        return self.index % 13

    @property
    def suit(self):
        return self.index // 13

    @property
    def value(self):
        return RANK_VALUES[self.rank]

    @property
    def mask(self):
        return 1 << self.index

    def code(self):
        return self._code

    def __str__(self):
        return self.code()

    def __repr__(self):
        return f"Card({self.code()!r})"

    def __lt__(self, other):
        return self.index < other.index

    def __reduce__(self):
        return (Card, (self.index,))


def _make_cards():
    for index in range(52):
        card = object.__new__(Card)
        card.index = index
        card._code = RANKS[index % 13] + SUITS[index // 13]
        Card._all.append(card)


_make_cards()
ALL_CARDS = tuple(Card._all)
_BY_CODE = {card.code(): card for card in ALL_CARDS}


def parse_cards(text):
    """The cards named in a space-separated string of codes.

    >>> parse_cards("AS TD 9H")
    [Card('AS'), Card('TD'), Card('9H')]
    >>> parse_cards("AS XX")
    Traceback (most recent call last):
    ...
    ValueError: bad card code: 'XX'
    """
    return [Card.from_code(code) for code in text.split()]


def mask_of(cards):
    """The mask of a collection of cards; raises ValueError if a card appears twice."""
    mask = 0
    for card in cards:
        if mask & card.mask:
            raise ValueError(f"card given twice: {card}")
        mask |= card.mask
    return mask


# The cards (and their codes) of each byte of a mask, byte by byte: a hand is read a byte at a
# time (seven lookups for any mask) instead of a bit at a time. Every view of a hand reads
# several masks: its melds, its deadwood, the cards each seat took from the pile.
_BYTE_CARDS = tuple(
    tuple(tuple(ALL_CARDS[8 * place + bit] for bit in range(8) if byte >> bit & 1 and 8 * place + bit < 52)
          for byte in range(256))
    for place in range(7)
)
_BYTE_CODES = tuple(tuple(tuple(card.code() for card in cards) for cards in place) for place in _BYTE_CARDS)


def cards_of(mask):
    """The cards of a mask, in index order (suit by suit, ace up)."""
    return _by_bytes(mask, _BYTE_CARDS)


def codes_of(mask):
    return _by_bytes(mask, _BYTE_CODES)


def _by_bytes(mask, table):
    found, place = [], 0
    while mask:
        if mask & 255:
            found += table[place][mask & 255]
        mask >>= 8
        place += 1
    return found
