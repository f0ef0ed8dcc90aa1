"""A deal nobody can rig, and anyone can check (docs/fairness.md states it exactly).

Before a hand the server picks a secret seed and shows only its commitment, SHA-256 of the
seed. Each seat then adds a contribution of its own. The deck, the first dealer of a match
and every reshuffle of the discard pile in a single hand follow from the three, each from
its own stream: HMAC-SHA256 keyed by the seed over "label:c0:c1:counter". After the hand the
seed is revealed and anyone can recompute the cards (docs/verify_deal.py).

>>> deal = Deal("00" * 32, ("11" * 32, "22" * 32))
>>> deal.commitment == commitment("00" * 32)
True
>>> [card.code() for card in deal.deck()[:5]] == [card.code() for card in deal.deck()[:5]]
True
>>> Deal("00" * 32, ("11" * 32, "nope"))
Traceback (most recent call last):
...
ValueError: bad contribution: 'nope'
"""

import dataclasses
import hashlib
import hmac
import itertools
import secrets

from .cards import ALL_CARDS

SHARE_BYTES = 32  # a seed and a contribution alike: 32 random bytes, written as 64 hex digits
DECK_LABEL = "deck"
DEALER_LABEL = "first-dealer"


def reshuffle_label(number):
    """The label of the hand's `number`th reshuffle of the discard pile, from 1."""
    return f"reshuffle-{number}"


def new_share():
    """A fresh seed or contribution from the operating system's randomness."""
    return secrets.token_hex(SHARE_BYTES)


def commitment(seed):
    """What the server shows before the deal: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(clean_share(seed, "seed"))).hexdigest()


def clean_share(share, what="contribution"):
    """`share` if it is 64 lowercase hex digits (32 bytes), else ValueError naming `what`."""
    if not isinstance(share, str) or len(share) != 2 * SHARE_BYTES or share.strip("0123456789abcdef"):
        raise ValueError(f"bad {what}: {share!r}")
    return share


@dataclasses.dataclass(frozen=True)
class Deal:
    """A hand's seed and both seats' contributions; `supplied[seat]` is True where the server
    supplied a seat's share because none came (the archive says so). `draws_dealer`: the
    match's first dealer was drawn from this deal (its first hand's)."""

    seed: str
    contributions: tuple
    supplied: tuple = (False, False)
    draws_dealer: bool = False

    def __post_init__(self):
        clean_share(self.seed, "seed")
        if len(self.contributions) != 2:
            raise ValueError("a deal takes two contributions")
        for share in self.contributions:
            clean_share(share)

    @property
    def commitment(self):
        return commitment(self.seed)

    def deck(self):
        """The 52 cards, top first: the cards in index order shuffled on the deck's stream."""
        return self.shuffled(ALL_CARDS, DECK_LABEL)

    def first_dealer(self):
        """The match's first dealer, when it is drawn rather than chosen: seat 0 or 1."""
        return below(2, self.stream(DEALER_LABEL))

    def reshuffle(self, number, cards):
        """The new stock, top first, of the hand's `number`th reshuffle (from 1) of `cards`."""
        return self.shuffled(sorted(cards), reshuffle_label(number))

    def shuffled(self, cards, label):
        """Fisher–Yates from the last place down, each place's pick drawn on `label`'s stream."""
        order, stream = list(cards), self.stream(label)
        for place in range(len(order) - 1, 0, -1):
            pick = below(place + 1, stream)
            order[place], order[pick] = order[pick], order[place]
        return order

    def stream(self, label):
        """The bytes of HMAC-SHA256(seed, "label:c0:c1:counter") for counter 0, 1, 2, …"""
        key, (first, second) = bytes.fromhex(self.seed), self.contributions
        for counter in itertools.count():
            yield from hmac.digest(key, f"{label}:{first}:{second}:{counter}".encode("ascii"), "sha256")

    def to_dict(self):
        """The deal as the archive shows it once the hand is over (the seed included)."""
        saved = {"commitment": self.commitment, "seed": self.seed,
                 "contributions": list(self.contributions), "supplied": list(self.supplied)}
        if self.draws_dealer:
            saved["draws_dealer"] = True
        return saved

    @classmethod
    def from_dict(cls, data):
        deal = cls(data["seed"], tuple(data["contributions"]), tuple(data["supplied"]), bool(data.get("draws_dealer")))
        if data.get("commitment", deal.commitment) != deal.commitment:
            raise ValueError("the seed does not match its commitment")
        return deal


@dataclasses.dataclass(frozen=True)
class NextDeal:
    """The next hand's deal while it waits: its seed, stored before its commitment is shown,
    and the contributions come so far (None: none yet). `fixed()` makes the Deal.

    >>> waiting = NextDeal("00" * 32).with_contribution(1, "11" * 32)
    >>> deal = waiting.fixed(supply=lambda: "22" * 32)
    >>> deal.contributions == ("22" * 32, "11" * 32), deal.supplied
    (True, (True, False))
    >>> waiting.with_contribution(1, "33" * 32)
    Traceback (most recent call last):
    ...
    ValueError: contribution_twice
    """

    seed: str
    contributions: tuple = (None, None)

    @classmethod
    def fresh(cls):
        return cls(new_share())

    @property
    def commitment(self):
        return commitment(self.seed)

    def with_contribution(self, seat, share):
        """The deal with `seat`'s share; ValueError "contribution_malformed" or "contribution_twice"."""
        try:
            clean_share(share)
        except ValueError:
            raise ValueError("contribution_malformed") from None
        if self.contributions[seat] is not None:
            raise ValueError("contribution_twice")
        shares = list(self.contributions)
        shares[seat] = share
        return dataclasses.replace(self, contributions=tuple(shares))

    def fixed(self, supply=new_share):
        """The Deal, the server supplying (by `supply()`) each share that did not come."""
        shares = tuple(share or supply() for share in self.contributions)
        return Deal(self.seed, shares, tuple(share is None for share in self.contributions))

    def to_dict(self):
        """For the server's own storage only: it holds the secret seed."""
        return {"seed": self.seed, "contributions": list(self.contributions)}

    @classmethod
    def from_dict(cls, data):
        return cls(clean_share(data["seed"], "seed"), tuple(data["contributions"]))


def below(bound, stream):
    """A number in range(bound), bound ≤ 256, from one byte of `stream`: a byte at or above
    the largest multiple of `bound` is skipped, so that every number is equally likely."""
    limit = 256 - 256 % bound
    for byte in stream:
        if byte < limit:
            return byte % bound
    raise ValueError("the stream ended")  # a stream never ends; for finite test streams


def seeded_share(*parts):
    """A share derived from `parts`: reproducible deals for tests and measurements, never real play."""
    return hashlib.sha256(":".join(str(part) for part in parts).encode("utf-8")).hexdigest()
