"""The rules of Gin Rummy as this site plays them (see RULES.md): standard library only,
no I/O, no user-facing text. Outcomes and refusals are codes that templates translate.

>>> from games.engine import parse_cards, deadwood_points
>>> deadwood_points(parse_cards("AS 2S 3S 7C 7D 7H KD KH 9C 4D"))
33
"""

from .cards import Card, parse_cards
from .hand import Hand, IllegalMove, Options, new_hand
from .match import SCORINGS, Match
from .melds import best_melds, deadwood_points
from .scoring import Game, ScoreSheet
from .showdown import HandResult

__all__ = [
    "Card", "parse_cards", "best_melds", "deadwood_points", "Options", "new_hand", "IllegalMove",
    "ScoreSheet", "Match", "SCORINGS", "Hand", "HandResult", "Game",
]
