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


def cards_of(mask):
    """The cards of a mask, in index order (suit by suit, ace up)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


def codes_of(mask):
    return [card.code() for card in cards_of(mask)]
