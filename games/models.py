"""Tables, seats and the move log. A table's match is its saved state (the engine's own save
format, `Table.state`) followed by the moves logged since, so a restarted server resumes at
the same card."""

from django.db import models

from games.engine import SCORINGS, TARGETS
from games.identity import NAME_MAX_CODE_POINTS, new_public_id

SCORING_CHOICES = [(name, name) for name in SCORINGS]
TARGET_CHOICES = [(target, str(target)) for target in TARGETS]


def new_table_code():
    # The public link, not a secret (games.identity.new_public_id).
    return new_public_id()


class Table(models.Model):
    code = models.CharField(max_length=16, unique=True, default=new_table_code)
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES)
    target = models.PositiveSmallIntegerField(choices=TARGET_CHOICES, default=100)
    straight = models.BooleanField(default=False)
    oklahoma = models.BooleanField(default=False)
    # Bumped by every change (compare-and-swap); clients send it back with a move.
    version = models.PositiveIntegerField(default=0)
    # A rematch is played at the same table: the seats stay, the match is new.
    match_number = models.PositiveIntegerField(default=1)
    match_started = models.DateTimeField(auto_now_add=True)
    # The match as the engine saves it (Match.to_dict()), as of version `state_version`:
    # saved at each deal and whenever chance was drawn on (a reshuffle). The moves after it
    # are in the log (Move), so a rebuild replays at most one hand's moves.
    state = models.JSONField()
    state_version = models.PositiveIntegerField(default=0)
    # The archive's row of the match being played, once both seats are taken, and its
    # public id (the protocol's match_id; the row's own id is sequential, so guessable).
    archive_id = models.PositiveIntegerField(null=True, blank=True)
    match_id = models.CharField(max_length=16, blank=True, default="")
    # How the current match ended before it was played out: "resigned" or "left" (the
    # other player claimed it), by seat `ended_by`; empty while it runs or once played out.
    ending = models.CharField(max_length=10, blank=True, default="")
    ended_by = models.PositiveSmallIntegerField(null=True, blank=True)
    # The turn clock chosen when the table was opened: seconds a turn (0: no clock), on top
    # of a bank each seat draws on once a turn runs over (settings.GAMES_CLOCK_BANK_SECONDS a
    # match, `clock_banks` holding what is left of each). The deadline of the turn being
    # played is stored, written with the change that started the turn: any process, or the
    # same one after a restart, plays the club level's move for a seat whose time ran out
    # (games.live.clock).
    clock = models.PositiveSmallIntegerField(default=0)
    # Days a turn (games.live.pace), 0 for real time: timed by the same deadline and banks as
    # the clock, but a seat whose time runs out loses the match.
    pace = models.PositiveSmallIntegerField(default=0)
    clock_deadline = models.DateTimeField(null=True, blank=True)
    clock_banks = models.JSONField(default=list, blank=True)
    # Only tests set it: deals then come from random.Random, reproducibly.
    deal_seed = models.CharField(max_length=40, null=True, blank=True)
    # The next hand's deal while it waits (games.engine.NextDeal.to_dict()): its secret seed,
    # stored before its commitment is shown so that a restarted server deals the same cards,
    # and the contributions come so far. Null while a hand is played.
    next_deal = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return self.code


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_CODE_POINTS)
    # Who sits here, for the archive's stats: the browser's player cookie, or a new
    # player for a program joining through the API.
    player = models.ForeignKey("archive.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # sha256 hex of the seat's secret; the secret itself is only in the player's cookie.
    token_hash = models.CharField(max_length=64)
    # The computer's level when the computer sits here (games.computer.LEVELS), else "".
    computer_level = models.CharField(max_length=10, blank=True, default="")
    ready = models.BooleanField(default=False)
    # When a socket of this seat opened or closed last: a claim counts the time away from it.
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat")]
        ordering = ["number"]

    def __str__(self):
        return f"{self.table.code}/{self.number} {self.name}"


class SocketsOfAProcess(models.Model):
    """How many sockets of something one server process holds open, and when that process
    last beat (games.live.presence). The process owns its rows; when it is gone (a crash),
    its beat stops and its sockets stop counting, without touching another process's."""

    process = models.CharField(max_length=32)
    connections = models.PositiveIntegerField(default=0)
    beat = models.DateTimeField()

    class Meta:
        abstract = True


class Presence(SocketsOfAProcess):
    """The open sockets of one seat in one server process."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presences")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "process"], name="one_presence_per_process")]
        indexes = [models.Index(fields=["process"])]


class Audience(SocketsOfAProcess):
    """The open sockets of a table's spectators in one server process: how many people are
    watching, across processes."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="audience")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "process"], name="one_audience_per_process")]
        indexes = [models.Index(fields=["process"])]


class Move(models.Model):
    # No index of its own: the constraint's index (table, version) leads with the table and
    # serves every lookup by table, and one index fewer is one write fewer a move.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves", db_index=False)
    match_number = models.PositiveIntegerField()
    hand_number = models.PositiveIntegerField()
    # The table's version once this move was applied.
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=16)
    # Played by the computer at the club level for a seat whose turn clock ran out.
    by_clock = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="one_move_per_version")]


class ChatMessage(models.Model):
    """A line of the players' chat, kept with the table. Not a game change: writing one
    never bumps the table's version."""

    MAX_LENGTH = 200

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
