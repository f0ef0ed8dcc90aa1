"""The score sheet: one game, or Hollywood's three games side by side."""

GAME_BONUS = 100
SHUTOUT_BONUS = 200
HAND_BONUS = 25


class Game:
    """One game on the sheet. Pairs are indexed by seat."""

    def __init__(self):
        self._points = [0, 0]
        self._hands_won = [0, 0]
        self._bonus = [0, 0]
        self.winner = None

    points = property(lambda self: tuple(self._points))
    hands_won = property(lambda self: tuple(self._hands_won), doc="hands entered in this game")
    bonus = property(lambda self: tuple(self._bonus), doc="game bonus plus 25 a hand, once over")

    @property
    def is_over(self):
        return self.winner is not None

    def enter(self, winner, points, target):
        self._points[winner] += points
        self._hands_won[winner] += 1
        if self._points[winner] >= target:
            self._finish(winner)

    def _finish(self, winner):
        self.winner = winner
        shutout = self._points[1 - winner] == 0
        self._bonus = [HAND_BONUS * won for won in self._hands_won]
        self._bonus[winner] += SHUTOUT_BONUS if shutout else GAME_BONUS

    def to_dict(self):
        return {"points": list(self._points), "hands_won": list(self._hands_won), "winner": self.winner, "bonus": list(self._bonus)}


class ScoreSheet:
    """A sheet of ``games`` games (3 for Hollywood, 1 for one game) played to ``target``.

    A player's first win is entered in game 1, the second in games 1 and 2, the third and
    later in all three; a finished game takes no more points.

    >>> sheet = ScoreSheet(games=3, target=100)
    >>> sheet.record(winner=0, points=60)
    [0]
    >>> sheet.record(winner=0, points=45)
    [0, 1]
    >>> sheet.games[0].winner, sheet.games[0].bonus, sheet.games[1].points
    (0, (250, 0), (45, 0))
    >>> sheet.totals, sheet.is_over
    ((400, 0), False)
    """

    def __init__(self, games=3, target=100):
        if games not in (1, 3):
            raise ValueError(f"bad number of games: {games!r}")
        if not isinstance(target, int) or target < 1:
            raise ValueError(f"bad target: {target!r}")
        self.target = target
        self.games = [Game() for _ in range(games)]
        self.wins = [0, 0]  # every hand won, entered or not

    def record(self, winner, points):
        """Enter one hand's win; returns the indices of the games it was entered in."""
        if winner not in (0, 1):
            raise ValueError(f"bad winner: {winner!r}")
        if not isinstance(points, int) or points < 1:
            raise ValueError(f"bad points: {points!r}")
        if self.is_over:
            raise ValueError("the sheet is finished")
        self.wins[winner] += 1
        reach = min(self.wins[winner], len(self.games))
        entered = [index for index in range(reach) if not self.games[index].is_over]
        for index in entered:
            self.games[index].enter(winner, points, self.target)
        return entered

    @property
    def totals(self):
        """Points plus bonuses of every game, per seat. Shown beside the result; decides nothing."""
        return tuple(sum(game.points[seat] + game.bonus[seat] for game in self.games) for seat in (0, 1))

    @property
    def is_over(self):
        return all(game.is_over for game in self.games)

    @property
    def winner(self):
        """The seat that won most games (two of three), once every game is over."""
        if not self.is_over:
            return None
        won = [sum(game.winner == seat for game in self.games) for seat in (0, 1)]
        return 0 if won[0] > won[1] else 1

    def to_dict(self):
        return {
            "target": self.target,
            "games": [game.to_dict() for game in self.games],
            "wins": list(self.wins),
            "totals": list(self.totals),
            "is_over": self.is_over,
            "winner": self.winner,
        }
