"""The rules of Gin Rummy as this site plays them (docs/rules.md): standard library only,
no I/O, no user-facing text. Outcomes and refusals are codes that templates translate.

>>> from games.engine import parse_cards, deadwood_points
>>> deadwood_points(parse_cards("AS 2S 3S 7C 7D 7H KD KH 9C 4D"))
33
"""

from .cards import Card, parse_cards
from .deal import Deal, NextDeal
from .hand import Hand, IllegalMove, Options, new_hand
from .match import Match
from .melds import best_melds, deadwood_points
from .moves import Move
from .scoring import (
    HOLLYWOOD, ONE_GAME, SCORING_MODES, SCORINGS, SINGLE_HAND, TARGETS, Game, ScoreSheet, ScoringMode,
    scoring_mode,
)
from .showdown import HandResult, ShownHand

__all__ = [
    "Card", "parse_cards", "Deal", "NextDeal", "best_melds", "deadwood_points", "Options", "new_hand", "IllegalMove", "Move",
    "ScoreSheet", "Match", "Hand", "HandResult", "ShownHand", "Game",
    "ScoringMode", "SCORING_MODES", "SCORINGS", "TARGETS", "SINGLE_HAND", "ONE_GAME", "HOLLYWOOD", "scoring_mode",
]
