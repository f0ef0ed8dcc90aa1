"""A match: hands dealt one after another, scored by single hand, one game or Hollywood."""

import json
import random
from dataclasses import replace

from .hand import Hand, IllegalMove, Options, new_hand
from .scoring import ScoreSheet

SCORINGS = ("hand", "game", "hollywood")
SAVE_FORMAT = 1


class Match:
    """A match between seats 0 and 1.

    The single-hand mode reshuffles at the end of the stock; one game and Hollywood use the
    two-card rule, whatever ``options`` said.

    >>> match = Match(Options(), scoring="hollywood", target=100, first_dealer=0, rng=random.Random(3))
    >>> match.hand.dealer, match.options.stock_end, match.is_over, match.winner
    (0, 'two_cards', False, None)
    >>> match.play("pass"); match.play("pass"); match.play("stock")
    >>> Match.from_json(match.to_json()).hand.view(1) == match.hand.view(1)
    True
    """

    def __init__(self, options=None, scoring="hollywood", target=100, first_dealer=0, rng=None):
        """``first_dealer=None`` lets ``rng`` choose the first dealer at random."""
        self._setup(options, scoring, target, first_dealer, rng)
        self._deal(self.first_dealer)

    def _setup(self, options, scoring, target, first_dealer, rng):
        if scoring not in SCORINGS:
            raise ValueError(f"bad scoring: {scoring!r}")
        if first_dealer not in (0, 1, None):
            raise ValueError(f"bad first_dealer: {first_dealer!r}")
        stock_end = "reshuffle" if scoring == "hand" else "two_cards"
        self.options = replace(options or Options(), stock_end=stock_end)
        self.scoring = scoring
        self.target = target
        self.rng = rng or random.SystemRandom()
        self.first_dealer = self.rng.randrange(2) if first_dealer is None else first_dealer
        self._sheet = None if scoring == "hand" else ScoreSheet(games=3 if scoring == "hollywood" else 1, target=target)
        self.hands = []
        self._results = []
        self._entered = []

    @property
    def hand(self):
        """The current hand (the last one dealt)."""
        return self.hands[-1]

    @property
    def sheet(self):
        """The ScoreSheet, or None for a single-hand match."""
        self._score_finished_hand()
        return self._sheet

    @property
    def results(self):
        """Every finished hand's result, in order."""
        self._score_finished_hand()
        return self._results

    @property
    def entered(self):
        """Per finished hand, the indices of the sheet's games its win was entered in,
        as ScoreSheet.record() said: [] for a hand with no winner, for a win that only
        finished games could have taken, and for every hand of a single-hand match.

        Rebuilt by the replay that reads a saved match, so it is never saved itself.
        """
        self._score_finished_hand()
        return self._entered

    def use_rng(self, rng):
        """Deal later hands, and reshuffle the current hand's stock, with ``rng``."""
        self.rng = rng
        self.hand.rng = rng

    def play(self, move, seat=None):
        """Play a move in the current hand; a hand's end is scored at once."""
        self.hand.play(move, seat)
        self._score_finished_hand()

    def next_hand(self):
        """Deal the next hand: the last hand's winner deals, or the same dealer after a draw."""
        if self.hand.result is None:
            raise IllegalMove("hand_not_over")
        if self.is_over:
            raise IllegalMove("match_over")
        self._deal(self._next_dealer())

    def _next_dealer(self):
        winner = self.hand.result.winner
        return self.hand.dealer if winner is None else winner

    def _deal(self, dealer, record=None):
        if record is None:
            self.hands.append(new_hand(self.options, dealer, rng=self.rng))
        else:
            if record["dealer"] != dealer:
                raise ValueError("saved hand has the wrong dealer")
            self.hands.append(Hand.from_dict(self.options, record, rng=self.rng))
            self._score_finished_hand()

    def _score_finished_hand(self):
        """Score the current hand once it is over, however it was played."""
        result = self.hand.result
        if result is None or len(self._results) == len(self.hands):
            return
        self._results.append(result)
        entered = []
        if self._sheet is not None and result.winner is not None:
            entered = self._sheet.record(winner=result.winner, points=result.points)
        self._entered.append(entered)

    @property
    def is_over(self):
        self._score_finished_hand()
        if self._sheet is not None:
            return self._sheet.is_over
        return bool(self._results) and self._results[-1].winner is not None

    @property
    def winner(self):
        """The seat that won the match, or None while it goes on."""
        if not self.is_over:
            return None
        return self._sheet.winner if self._sheet is not None else self._results[-1].winner

    def view(self, seat=None):
        """What ``seat`` (None: a spectator) may see of the match, JSON-serialisable.

        ``hand_view`` is the current hand's view(seat); ``sheet`` is ScoreSheet.to_dict() or
        None; ``results`` are the finished hands' results; ``can_deal`` says next_hand() may
        be called.
        """
        return {
            "scoring": self.scoring,
            "target": self.target,
            "hand_number": len(self.hands),
            "hand_view": self.hand.view(seat),
            "sheet": self.sheet.to_dict() if self.sheet is not None else None,
            "results": list(self.results),
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
