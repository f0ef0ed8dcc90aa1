"""A match: hands dealt one after another, scored on the sheet of its scoring mode."""

import dataclasses
import json
import random

from .hand import Hand, IllegalMove, Options, new_hand
from .scoring import scoring_mode

SAVE_FORMAT = 1


class Match:
    """A match between seats 0 and 1, in the scoring mode named ``scoring``.

    The mode decides the stock-end rule (a single hand reshuffles, one game and Hollywood use
    the two-card rule), whatever ``options`` said. A hand's end is scored on the sheet as
    soon as it is played; everything else here only reads.

    >>> match = Match(Options(), scoring="hollywood", target=100, first_dealer=0, rng=random.Random(3))
    >>> match.hand.dealer, match.options.stock_end, match.is_over, match.winner
    (0, 'two_cards', False, None)
    >>> match.play("pass"); match.play("pass"); match.play("stock")
    >>> Match.from_json(match.to_json()).hand.view(1) == match.hand.view(1)
    True
    """

    def __init__(self, options=None, scoring="hollywood", target=100, first_dealer=0, rng=None, deal=None):
        """``first_dealer=None`` lets ``deal`` (a Deal: the first hand's cards), else ``rng``,
        choose the first dealer at random."""
        if deal is not None and first_dealer is None:
            first_dealer, deal = deal.first_dealer(), dataclasses.replace(deal, draws_dealer=True)
        self._setup(options, scoring, target, first_dealer, rng)
        self._deal(self.first_dealer, deal=deal)

    def _setup(self, options, scoring, target, first_dealer, rng):
        if first_dealer not in (0, 1, None):
            raise ValueError(f"bad first_dealer: {first_dealer!r}")
        self.mode = scoring_mode(scoring)
        options = options or Options()
        self.options = self.mode.options(options.straight, options.oklahoma)
        self.target = target
        self.rng = rng or random.SystemRandom()
        self.first_dealer = self.rng.randrange(2) if first_dealer is None else first_dealer
        self.sheet = self.mode.new_sheet(target)
        self.hands = []
        self.results = []  # every finished hand's HandResult, in order

    @property
    def scoring(self):
        """The scoring mode's name."""
        return self.mode.name

    @property
    def hand(self):
        """The current hand (the last one dealt)."""
        return self.hands[-1]

    @property
    def is_over(self):
        return self.sheet.is_over

    @property
    def winner(self):
        """The seat that won the match, or None while it goes on."""
        return self.sheet.winner

    def sheet_after(self, hand_number):
        """The ScoreSheet as it stood once hand ``hand_number`` (from 1) was scored."""
        return self.sheet.as_of(hand_number)

    def use_rng(self, rng):
        """Deal later hands, and reshuffle the current hand's stock, with ``rng``."""
        self.rng = rng
        self.hand.rng = rng

    def play(self, move, seat=None):
        """Play a move in the current hand; a hand's end is scored at once."""
        self.hand.play(move, seat)
        self._score_if_over()

    def next_hand(self, deal=None):
        """Deal the next hand, from ``deal`` if given (else with the rng): the last hand's
        winner deals, or the same dealer after a draw."""
        if self.hand.result is None:
            raise IllegalMove("hand_not_over")
        if self.is_over:
            raise IllegalMove("match_over")
        self._deal(self._next_dealer(), deal=deal)

    def _next_dealer(self):
        winner = self.hand.result.winner
        return self.hand.dealer if winner is None else winner

    def _deal(self, dealer, record=None, deal=None):
        if record is None:
            self.hands.append(new_hand(self.options, dealer, rng=self.rng, deal=deal))
            return
        if record["dealer"] != dealer:
            raise ValueError("saved hand has the wrong dealer")
        self.hands.append(Hand.from_dict(self.options, record, rng=self.rng))
        self._score_if_over()

    def _score_if_over(self):
        result = self.hand.result
        if result is not None:
            self.results.append(result)
            self.sheet.record(result.winner, result.points)

    def view(self, seat=None):
        """What ``seat`` (None: a spectator) may see of the match, JSON-serialisable.

        ``hand_view`` is the current hand's view(seat); ``sheet`` is ScoreSheet.to_dict();
        ``results`` are the finished hands' results; ``can_deal`` says next_hand() may be
        called.
        """
        return {
            "scoring": self.scoring,
            "target": self.target,
            "hand_number": len(self.hands),
            "hand_view": self.hand.view(seat),
            "sheet": self.sheet.to_dict(),
            "results": [result.to_dict() for result in self.results],
            "is_over": self.is_over,
            "winner": self.winner,
            "can_deal": self.hand.result is not None and not self.is_over,
        }

    # Saving ----------------------------------------------------------------------------

    def to_dict(self):
        """The match as JSON-ready data: its settings and every hand's deck and moves.

        ``{"format": 1, "options": {"straight", "oklahoma"}, "scoring", "target",
        "first_dealer", "hands": [{"dealer", "deck": [52 codes], "moves": [...],
        "reshuffles": [[codes of each new stock, top first], ...]}, ...]}``. Reading it back
        replays every move, so scores and sheets are never stored twice.
        """
        return {
            "format": SAVE_FORMAT,
            "options": {"straight": self.options.straight, "oklahoma": self.options.oklahoma},
            "scoring": self.scoring,
            "target": self.target,
            "first_dealer": self.first_dealer,
            "hands": [hand.to_dict() for hand in self.hands],
        }

    def to_json(self):
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data, rng=None):
        """Rebuild a match saved by to_dict() by replaying every hand; ``rng`` deals later ones."""
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"unknown save format: {data.get('format')!r}")
        records = data["hands"]
        if not records:
            raise ValueError("a saved match holds at least one hand")
        match = cls.__new__(cls)
        match._setup(Options(**data["options"]), data["scoring"], data["target"], data["first_dealer"], rng)
        for index, record in enumerate(records):
            match._deal(match.first_dealer if index == 0 else match._next_dealer(), record)
        return match

    @classmethod
    def from_json(cls, text, rng=None):
        return cls.from_dict(json.loads(text), rng=rng)
