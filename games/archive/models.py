"""The archive: players, and every match as it was played, kept after it ends.

Stats are never computed by walking matches in Python. At the moment a match ends
(`record.finish_archived_match`) each side of it is written as a `PlayerResult`:
the match seen from one player's side, with the counts the player page needs. A
player's numbers are then one aggregate over their rows (lichess: stats are a fold
over finished games seen from one player's side).
"""

from django.db import models

from games import identity
from games.engine import SCORINGS, ScoreSheet, scoring_mode
from games.identity import NAME_MAX_CODE_POINTS

SCORING_CHOICES = [(name, name) for name in SCORINGS]


def new_public_id():
    # A player's or a match's public address, not a secret (games.identity).
    return identity.new_public_id()


class Player(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    # sha256 hex of the secret in the `player` cookie and the "another device" link.
    token_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=NAME_MAX_CODE_POINTS, db_index=True)
    # The computer's level (games.computer.LEVELS) for the computer's players, else "".
    computer_level = models.CharField(max_length=10, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.name} ({self.public_id})"

    @property
    def is_computer(self):
        return bool(self.computer_level)


class ArchivedMatch(models.Model):
    # "finished" matches have a winner and count in the stats; "abandoned" ones (nobody
    # came back, nobody claimed them) count for no one.
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    STATUS_CHOICES = [(PLAYING, PLAYING), (FINISHED, FINISHED), (ABANDONED, ABANDONED)]
    # How a match ended: played out, resigned by the loser, left by them (claimed), or lost
    # by running out of time at a table played at a pace of days a turn.
    PLAYED = "played"
    RESIGNED = "resigned"
    LEFT = "left"
    OUT_OF_TIME = "time"
    ENDING_CHOICES = [(PLAYED, PLAYED), (RESIGNED, RESIGNED), (LEFT, LEFT), (OUT_OF_TIME, OUT_OF_TIME)]

    # The match's address (/archive/matches/<public_id>/) and the protocol's match_id:
    # random, so the matches being played cannot be listed by counting.
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    # A rematch is a new match at the same table: the key is the pair.
    table_code = models.CharField(max_length=16)
    match_number = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PLAYING)
    ending = models.CharField(max_length=10, choices=ENDING_CHOICES, blank=True, default="")
    player0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES)
    target = models.PositiveSmallIntegerField(default=100)
    straight = models.BooleanField(default=False)
    oklahoma = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    total0 = models.IntegerField(default=0)
    total1 = models.IntegerField(default=0)
    games_won0 = models.PositiveSmallIntegerField(default=0)
    games_won1 = models.PositiveSmallIntegerField(default=0)
    hand_count = models.PositiveSmallIntegerField(default=0)
    # The final sheet, the engine's ScoreSheet.to_dict(): the protocol's shape.
    sheet = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_code", "match_number"], name="one_archive_per_match"),
        ]
        indexes = [
            # The archive list: finished matches, newest first, optionally one mode.
            models.Index(fields=["status", "-finished_at", "-id"], name="archive_newest"),
            models.Index(fields=["scoring", "status", "-finished_at", "-id"], name="archive_mode_newest"),
        ]

    def __str__(self):
        return f"{self.table_code}/{self.match_number} {self.scoring}"

    @property
    def players(self):
        return (self.player0, self.player1)

    @property
    def mode(self):
        """The engine's ScoringMode."""
        return scoring_mode(self.scoring)

    @property
    def winner(self):
        """The Player who won, from the seat: None while the match is not finished."""
        return None if self.winner_seat is None else self.players[self.winner_seat]

    @property
    def totals(self):
        return (self.total0, self.total1)

    @property
    def games_won(self):
        return (self.games_won0, self.games_won1)

    def sheets_after_each_hand(self):
        """The sheet (ScoreSheet.to_dict()) as it stood after each hand, in order, made from
        the final one by the engine: what live play sent after each hand. The answers share
        the final sheet's rows and entries (ScoreSheet.to_dict's `later`): read them, do not
        change them. None stored yet (a match being played): no hands, no sheets."""
        if self.sheet is None:
            return []
        sheet = ScoreSheet(scoring_mode(self.sheet["scoring"]), self.sheet["target"])
        after = []
        for row in self.sheet["hands"]:
            sheet.record(row["winner"], row["points"])
            after.append(sheet.to_dict(later=self.sheet))
        return after


class ArchivedHand(models.Model):
    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()  # 1, 2, … in the order played
    dealer = models.PositiveSmallIntegerField()
    # The engine's HandResult.to_dict(), per seat as the engine gives it: the protocol's
    # `hand_result`.
    result = models.JSONField()
    # Enough to replay the hand with the engine: the deck top first, the moves, and each
    # reshuffled stock (a single hand).
    deck = models.JSONField(default=list)
    moves = models.JSONField(default=list)
    reshuffles = models.JSONField(default=list)
    # How the deck was drawn (games.engine.Deal.to_dict(): commitment, seed, contributions,
    # which shares the server supplied); null for a hand dealt before deals were recorded.
    deal = models.JSONField(null=True, blank=True)
    # The places in `moves` of those the computer played for a seat whose turn clock ran out.
    by_clock = models.JSONField(default=list, blank=True)
    # No sheet of its own: the sheet after a hand follows from the match's final sheet
    # (ArchivedMatch.sheets_after_each_hand). Stored, a match's sheets grew with the square
    # of its hands: 70 % of a 31-hand match's JSON, 36 % of a hand's row on PostgreSQL
    # (which compresses the longer ones).

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number")]

    winner = property(lambda self: self.result["winner"], doc="a seat; None for a hand with no winner")
    kind = property(lambda self: self.result["kind"])
    points = property(lambda self: self.result["points"])
    knocker = property(lambda self: self.result["knocker"])


class PlayerResult(models.Model):
    """One finished match seen from one seat. Written once, when the match ends."""

    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    opponent = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES)
    finished_at = models.DateTimeField()
    # Against the computer: kept apart from the numbers against people, so nobody farms them.
    against_computer = models.BooleanField(default=False)
    won = models.BooleanField()
    total = models.IntegerField()
    opponent_total = models.IntegerField()
    games_won = models.PositiveSmallIntegerField(default=0)
    hands_won = models.PositiveSmallIntegerField(default=0)
    gins = models.PositiveSmallIntegerField(default=0)
    knocks = models.PositiveSmallIntegerField(default=0)  # won by a knock that was not gin
    undercuts_made = models.PositiveSmallIntegerField(default=0)
    undercuts_suffered = models.PositiveSmallIntegerField(default=0)
    hand_points = models.PositiveIntegerField(default=0)  # the points of the hands won
    shutouts = models.PositiveSmallIntegerField(default=0)  # games won with the loser on 0
    # The player's winning streak after this match: the current streak is the
    # newest row's, the longest is the Max — no walk over the history.
    streak = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_result_per_seat")]
        indexes = [
            models.Index(fields=["player", "-finished_at", "-id"], name="archive_player_newest"),
            models.Index(fields=["player", "opponent"], name="archive_player_opponent"),
        ]


class PlayerTotals(models.Model):
    """A player's numbers, refreshed from their PlayerResult rows whenever one is added.

    The player page of someone with ten thousand matches then reads one row instead of
    aggregating ten thousand; `stats.refresh_totals` is the only writer.
    """

    player = models.OneToOneField(Player, primary_key=True, on_delete=models.CASCADE, related_name="totals")
    matches_played = models.PositiveIntegerField(default=0)
    matches_won = models.PositiveIntegerField(default=0)
    hollywood_games_won = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    gins = models.PositiveIntegerField(default=0)
    knocks = models.PositiveIntegerField(default=0)
    undercuts_made = models.PositiveIntegerField(default=0)
    undercuts_suffered = models.PositiveIntegerField(default=0)
    hand_points = models.PositiveIntegerField(default=0)
    shutouts = models.PositiveIntegerField(default=0)
    best_match_total = models.IntegerField(null=True, blank=True)
    longest_streak = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0)


class OpponentRecord(models.Model):
    """Matches played and won by `player` against `opponent`, refreshed like PlayerTotals."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "opponent"], name="one_record_per_opponent")]
        # The player page's "against each opponent": most played first, ties by opponent,
        # read off the index in order, however many opponents a busy player has met.
        indexes = [models.Index(fields=["player", "-played", "opponent"], name="archive_most_played_first")]


class MatchReview(models.Model):
    """The computer's review of a match's first `hand_count` hands (games.archive.reviews):
    computed once by a task, stored, shown to everyone after that."""

    PENDING = "pending"
    READY = "ready"
    STATUS_CHOICES = [(PENDING, PENDING), (READY, READY)]

    match = models.OneToOneField(ArchivedMatch, on_delete=models.CASCADE, related_name="review")
    # The match's players, as on the match (which never changes them): a player's mean accuracy
    # is then read off these columns' indexes, not joined through a million matches.
    player0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    # The hands finished when it was asked for (a match still being played has more later).
    hand_count = models.PositiveSmallIntegerField()
    # Per seat, once ready: {"accuracy", "inaccuracies", "mistakes", "blunders", "luck"}.
    seats = models.JSONField(null=True, blank=True)
    # Each seat's accuracy once ready, as columns: a player's mean is one aggregate.
    accuracy0 = models.FloatField(null=True, blank=True)
    accuracy1 = models.FloatField(null=True, blank=True)
    # Once ready, every tagged decision in the order played, each as a hand's `decisions` holds
    # it with its hand's `number` as "hand": a replay finds the mistakes around it here, not
    # in every reviewed hand.
    mistakes = models.JSONField(default=list)
    requested_at = models.DateTimeField()
    # When its worker last stored a hand: a pending review silent too long is queued again.
    beat_at = models.DateTimeField()


class ReviewedHand(models.Model):
    """One hand of a review: games.computer.review.HandReview.to_dict()."""

    review = models.ForeignKey(MatchReview, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    decisions = models.JSONField(default=list)
    luck = models.JSONField(default=list)
    chances = models.JSONField(default=list)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["review", "number"], name="one_reviewed_hand_per_number")]
