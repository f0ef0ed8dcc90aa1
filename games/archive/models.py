"""The archive: players, and every match as it was played, kept after it ends.

Stats are never computed by walking matches in Python. At the moment a match ends
(`record.record_finished_match`) each side of it is written as a `PlayerResult`:
the match seen from one player's side, with the counts the player page needs. A
player's numbers are then one aggregate over their rows (lichess: stats are a fold
over finished games seen from one player's side).
"""

import hashlib
import secrets

from django.db import models

SCORING_CHOICES = [("hand", "hand"), ("game", "game"), ("hollywood", "hollywood")]
KIND_CHOICES = [("gin", "gin"), ("knock", "knock"), ("undercut", "undercut"), ("draw", "draw")]


def new_public_id():
    # 12 URL-safe characters: a player's public address, not a secret.
    return secrets.token_urlsafe(9)


def new_token():
    return secrets.token_urlsafe(32)


def hash_token(token):
    return hashlib.sha256(token.encode()).hexdigest()


class Player(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    # sha256 hex of the secret in the `player` cookie and the "another device" link.
    token_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=24, db_index=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.name} ({self.public_id})"


class ArchivedMatch(models.Model):
    PLAYING = "playing"
    FINISHED = "finished"
    UNFINISHED = "unfinished"
    STATUS_CHOICES = [(PLAYING, PLAYING), (FINISHED, FINISHED), (UNFINISHED, UNFINISHED)]

    # A rematch is a new match at the same table: the key is the pair.
    table_code = models.CharField(max_length=16)
    match_number = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PLAYING)
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
    # The final sheet in the protocol's shape; null for a single hand.
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
    def winner(self):
        """The Player who won, from the seat: None while the match is not finished."""
        return None if self.winner_seat is None else self.players[self.winner_seat]

    @property
    def totals(self):
        return (self.total0, self.total1)

    @property
    def games_won(self):
        return (self.games_won0, self.games_won1)


class ArchivedHand(models.Model):
    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()  # 1, 2, … in the order played
    dealer = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # a seat; None for a draw
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    points = models.PositiveIntegerField(default=0)
    # Denormalised so hand-level counts are a filter on an index, not a join.
    winner_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    loser_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # The showdown, each a pair indexed by seat, as the engine gives it: melds (lists
    # of card codes), lay-offs ({"card", "meld": index of the knocker's meld}),
    # deadwood cards and deadwood points; `knocker` a seat or None.
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)
    knock_card = models.CharField(max_length=2, blank=True, default="")
    melds = models.JSONField(default=list)
    layoffs = models.JSONField(default=list)
    deadwood = models.JSONField(default=list)
    deadwood_points = models.JSONField(default=list)
    # Enough to replay the hand with the engine: the deck top first, and the moves.
    deck = models.JSONField(default=list)
    moves = models.JSONField(default=list)
    reshuffles = models.JSONField(default=list)  # single hand: each new stock, top first
    # The sheet as it stood after this hand (protocol shape); null for a single hand.
    sheet = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number")]
        indexes = [models.Index(fields=["winner_player", "kind"], name="archive_hand_winner_kind")]


class PlayerResult(models.Model):
    """One finished match seen from one seat. Written once, when the match ends."""

    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    opponent = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES)
    finished_at = models.DateTimeField()
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
        indexes = [models.Index(fields=["player", "-played"], name="archive_most_played")]
