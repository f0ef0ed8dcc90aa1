"""What a hand's result is worth in the match: the chance of winning the match after it.

A hand is won by either player about as often, with points spread roughly as below; from
that, the chance of reaching the target first from any pair of scores is a small table. So a
knock that banks the last points of a game is worth a lot, and a Hollywood win that can only
go to finished games is worth nothing.
"""

from functools import lru_cache
from itertools import combinations

from games.engine.scoring import games_reached, scoring_mode

# A hand winner's points, roughly as the site's games spread them: (points, share).
POINTS_SPREAD = (
    (3, 0.08), (6, 0.10), (9, 0.10), (12, 0.10), (15, 0.09), (19, 0.09),
    (24, 0.08), (29, 0.10), (34, 0.09), (40, 0.08), (48, 0.06), (60, 0.03),
)


@lru_cache(maxsize=8)
def game_odds(target):
    """odds[a][b]: the chance of reaching ``target`` first with a points against b."""
    odds = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target, -1, -1):
        for b in range(target, -1, -1):
            if a == target:
                odds[a][b] = 1.0
            elif b == target:
                odds[a][b] = 0.0
            else:
                odds[a][b] = sum(share * 0.5 * (odds[min(a + p, target)][b] + odds[a][min(b + p, target)]) for p, share in POINTS_SPREAD)
    return odds


class Stakes:
    """The match value of a hand's end, for one seat: ``value(winner, points)`` in [0, 1]."""

    def __init__(self, view, seat):
        self.seat = seat
        sheet = view["sheet"]
        self.sheet = sheet if sheet and sheet.get("games") else None
        if self.sheet is not None:
            self.games_to_win = scoring_mode(sheet["scoring"]).games_to_win
            self.odds = game_odds(self.sheet["target"])
            self.now = self._match_odds(self.sheet["games"])

    def value(self, winner, points):
        if winner is None:
            return self.now if self.sheet is not None else 0.5
        if self.sheet is None:
            # A single hand: winning is what counts, and a bigger win a little more.
            margin = 0.45 + 0.05 * min(points, 100) / 100
            return 0.5 + margin if winner == self.seat else 0.5 - margin
        return self._match_odds(self._after(winner, points))

    def _after(self, winner, points):
        """The games' points once this win is entered (a finished game takes no more)."""
        sheet = self.sheet
        reach = games_reached(sheet["wins"][winner] + 1, len(sheet["games"]))
        games = []
        for index, game in enumerate(sheet["games"]):
            if index < reach and game["winner"] is None:
                scores = list(game["points"])
                scores[winner] += points
                winner_of_game = winner if scores[winner] >= sheet["target"] else None
                game = {"points": scores, "winner": winner_of_game}
            games.append(game)
        return games

    def _match_odds(self, games):
        """The chance of winning the games the match needs, taking the games as independent."""
        chances = [self._game_odds(game) for game in games]
        total = 0.0
        for count in range(self.games_to_win, len(chances) + 1):
            for won in combinations(range(len(chances)), count):
                share = 1.0
                for number, chance in enumerate(chances):
                    share *= chance if number in won else 1.0 - chance
                total += share
        return total

    def _game_odds(self, game):
        if game["winner"] is not None:
            return 1.0 if game["winner"] == self.seat else 0.0
        target = self.sheet["target"]
        mine, theirs = game["points"][self.seat], game["points"][1 - self.seat]
        return self.odds[min(mine, target)][min(theirs, target)]
