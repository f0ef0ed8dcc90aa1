"""Scoring modes and the score sheet (docs/rules.md, "A match").

A `ScoringMode` says what a mode is: its name, how many games its sheet holds (0 for a single
hand, 1 for one game, 3 for Hollywood), its stock-end rule, and how its sheet is made. Every
mode has a sheet: a row per hand played, in order, each saying where its win was entered.
"""

from dataclasses import dataclass

from .hand import Options

GAME_BONUS = 100
SHUTOUT_BONUS = 200
HAND_BONUS = 25


@dataclass(frozen=True)
class ScoringMode:
    """One way to score a match.

    >>> scoring_mode("hollywood").games, scoring_mode("hand").stock_end
    (3, 'reshuffle')
    """

    name: str
    games: int
    # "reshuffle": the discard pile becomes a new stock; "two_cards": the last two cards of
    # the stock are never drawn and a hand can end with no winner.
    stock_end: str

    @property
    def games_to_win(self):
        """How many of the sheet's games win the match: a majority (two of three)."""
        return self.games // 2 + 1

    @property
    def has_target(self):
        """A target decides only where there are games to reach it."""
        return self.games > 0

    def new_sheet(self, target):
        return ScoreSheet(self, target)

    def options(self, straight=False, oklahoma=False):
        """The Options a hand of this mode is played with: the table's two options and the
        mode's own stock-end rule."""
        return Options(straight=straight, oklahoma=oklahoma, stock_end=self.stock_end)


def games_reached(wins, games):
    """How many of the sheet's ``games`` (from the first) a player's ``wins``-th win is entered
    in, the finished ones included: the first win reaches game 1, the second games 1 and 2,
    the third and later all three.

    >>> [games_reached(wins, 3) for wins in (1, 2, 3, 4)]
    [1, 2, 3, 3]
    """
    return min(wins, games)


SINGLE_HAND = ScoringMode("hand", games=0, stock_end="reshuffle")
ONE_GAME = ScoringMode("game", games=1, stock_end="two_cards")
HOLLYWOOD = ScoringMode("hollywood", games=3, stock_end="two_cards")
# In the order a player is offered them.
SCORING_MODES = (HOLLYWOOD, ONE_GAME, SINGLE_HAND)
SCORINGS = tuple(mode.name for mode in SCORING_MODES)
TARGETS = (100, 250)


def scoring_mode(name):
    """The mode called ``name``; ValueError for any other value."""
    for mode in SCORING_MODES:
        if mode.name == name:
            return mode
    raise ValueError(f"bad scoring: {name!r}")


class Game:
    """One game on the sheet. Pairs are indexed by seat; ``entries`` are the wins entered in
    it, ``{"hand", "seat", "points"}``, in order."""

    def __init__(self):
        self._points = [0, 0]
        self._hands_won = [0, 0]
        self._bonus = [0, 0]
        self.entries = []
        self.winner = None

    points = property(lambda self: tuple(self._points))
    hands_won = property(lambda self: tuple(self._hands_won), doc="hands entered in this game")
    bonus = property(lambda self: tuple(self._bonus), doc="game bonus plus 25 a hand, once over")

    @property
    def is_over(self):
        return self.winner is not None

    def enter(self, hand, winner, points, target):
        self._points[winner] += points
        self._hands_won[winner] += 1
        self.entries.append({"hand": hand, "seat": winner, "points": points})
        if self._points[winner] >= target:
            self._finish(winner)

    def _finish(self, winner):
        self.winner = winner
        shutout = self._points[1 - winner] == 0
        self._bonus = [HAND_BONUS * won for won in self._hands_won]
        self._bonus[winner] += SHUTOUT_BONUS if shutout else GAME_BONUS

    def to_dict(self, later=None):
        """``later``: this game's ``to_dict()`` later in the match (ScoreSheet.to_dict)."""
        values = {
            "points": list(self._points), "hands_won": list(self._hands_won), "winner": self.winner,
            "bonus": list(self._bonus),
            "entries": [dict(entry) for entry in self.entries] if later is None else later["entries"][: len(self.entries)],
        }
        return values if later is None else {key: values[key] for key in later}


class ScoreSheet:
    """The sheet of a match in ``mode``, its games played to ``target``.

    A player's first win is entered in game 1, the second in games 1 and 2, the third and
    later in all three; a finished game takes no more points. Every hand is a row: a win
    that only finished games could have taken, and a hand with no winner, are rows entered
    nowhere.

    >>> sheet = HOLLYWOOD.new_sheet(target=100)
    >>> sheet.record(winner=0, points=60)
    [0]
    >>> sheet.record(winner=0, points=45)
    [0, 1]
    >>> sheet.games[0].winner, sheet.games[0].bonus, sheet.games[1].points
    (0, (250, 0), (45, 0))
    >>> sheet.totals, sheet.is_over
    ((400, 0), False)
    >>> [row["games"] for row in sheet.as_of(1).rows]
    [[0]]
    """

    def __init__(self, mode, target):
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"bad target: {target!r}")
        self.mode = mode
        self.target = target
        self.games = [Game() for _ in range(mode.games)]
        self.rows = []  # {"hand", "winner", "points", "games": [indices entered]} a hand
        self.wins = [0, 0]  # every hand won, entered or not

    def record(self, winner, points):
        """Enter one hand: its winner (None: no winner) and points; returns the indices of
        the games its win was entered in."""
        if self.is_over:
            raise ValueError("the sheet is finished")
        if winner is None:
            return self._add_row(None, 0, [])
        if winner not in (0, 1):
            raise ValueError(f"bad winner: {winner!r}")
        if not isinstance(points, int) or points < 1:
            raise ValueError(f"bad points: {points!r}")
        self.wins[winner] += 1
        reach = games_reached(self.wins[winner], len(self.games))
        entered = [index for index in range(reach) if not self.games[index].is_over]
        hand = len(self.rows) + 1
        for index in entered:
            self.games[index].enter(hand, winner, points, self.target)
        return self._add_row(winner, points, entered)

    def _add_row(self, winner, points, entered):
        self.rows.append({"hand": len(self.rows) + 1, "winner": winner, "points": points, "games": entered})
        return entered

    def as_of(self, hands):
        """The sheet as it stood after its first ``hands`` rows."""
        sheet = ScoreSheet(self.mode, self.target)
        for row in self.rows[:hands]:
            sheet.record(row["winner"], row["points"])
        return sheet

    @property
    def totals(self):
        """Per seat: points plus bonuses of every game (a single hand: the hand's points).
        Shown beside the result; decides nothing."""
        if not self.games:
            return tuple(sum(row["points"] for row in self.rows if row["winner"] == seat) for seat in (0, 1))
        return tuple(sum(game.points[seat] + game.bonus[seat] for game in self.games) for seat in (0, 1))

    @property
    def is_over(self):
        if not self.games:
            return any(row["winner"] is not None for row in self.rows)
        return all(game.is_over for game in self.games)

    @property
    def winner(self):
        """The seat that won the match once it is over: the single hand's winner, or the
        one who won most games (two of three)."""
        if not self.is_over:
            return None
        if not self.games:
            return next(row["winner"] for row in self.rows if row["winner"] is not None)
        won = [sum(game.winner == seat for game in self.games) for seat in (0, 1)]
        return 0 if won[0] > won[1] else 1

    def games_won(self, seat):
        return sum(game.winner == seat for game in self.games)

    def to_dict(self, later=None):
        """The sheet as the protocol and the archive send it.

        ``later``: the ``to_dict()`` of a later sheet of the same match (this one's rows and
        each game's entries are the first of its). Those lists are then its own, cut short,
        sharing its dicts instead of copies, and the keys come in its order (as it was read
        back: PostgreSQL's jsonb keeps an object's keys sorted by length). The archive makes
        the sheet after each hand of a match this way from the final one it stores.

        >>> sheet = HOLLYWOOD.new_sheet(target=100)
        >>> for winner, points in ((0, 60), (1, 20), (0, 45)):
        ...     _ = sheet.record(winner, points)
        >>> sheet.as_of(2).to_dict(later=sheet.to_dict()) == sheet.as_of(2).to_dict()
        True
        """
        kept_games = [None] * len(self.games) if later is None else later["games"]
        values = {
            "scoring": self.mode.name,
            "target": self.target,
            "games": [game.to_dict(later=kept) for game, kept in zip(self.games, kept_games)],
            "hands": [dict(row, games=list(row["games"])) for row in self.rows] if later is None
            else later["hands"][: len(self.rows)],
            "wins": list(self.wins),
            "totals": list(self.totals),
            "is_over": self.is_over,
            "winner": self.winner,
        }
        return values if later is None else {key: values[key] for key in later}
