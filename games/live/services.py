"""The only code that writes tables, seats and moves.

Each operation is one synchronous function in one transaction, called by consumers through
`database_sync_to_async` and by views directly, and announced only after it returns
(`games.live.hub`). A move is one round trip's worth of SQL: the move appended to the
log (unique per table and version) and the table's version advanced by a compare-and-swap
(`UPDATE … WHERE version = v`), which is safe on SQLite and PostgreSQL alike. The match is
checked by the engine in this process's room (games.live.rooms), which is updated and republished
once the write has committed; a room that fell behind another process loses the
compare-and-swap and is rebuilt from the database. The whole match is saved (`Table.state`)
only when chance was drawn on: a deal, a rematch, a reshuffle.

Expected refusals raise `GameError(code)`; `games.display.messages` turns a code into words.
"""

from contextlib import contextmanager, nullcontext
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from games import identity
from games.archive import players as archive_players
from games.archive import record as archive
from games.live.broadcast import Change
from games.computer import LEVELS
from games.engine import HOLLYWOOD, TARGETS, IllegalMove, scoring_mode
from games.engine.moves import MAX_TEXT_LENGTH
from games.errors import GameError
from games.archive.models import ArchivedMatch
from games.models import ChatMessage, Move, Seat, Table
from games.live.rooms import get_table, new_match, rng_for, rooms, seats_of
from games.live.snapshot import PRESENCE_HEARTBEAT, claimable, player_state, seat_holding

PRESENCE_HEARTBEAT_DELTA = timedelta(seconds=PRESENCE_HEARTBEAT)

# Refusals of the engine that the protocol names by themselves; any other is an
# "illegal_move" carrying the engine's code as its reason.
ENGINE_REFUSALS = ("not_your_turn", "hand_over")


class Overtaken(GameError):
    """The database refused a write: another writer (another process) got there first. The
    room that made it may be behind, or ahead in memory of what committed."""

    def __init__(self):
        super().__init__("stale")


class Seated(NamedTuple):
    """Who took a seat: the seat's number and secret, and the secret of a player created
    for them (None when their player cookie named one), for the caller to hand over."""

    table: Table
    seat: int
    token: str
    player_token: str = None
    change: Change = None


def clean_name(raw):
    """1 to 24 printable characters after trimming (games.identity's rule), else GameError."""
    try:
        return identity.clean_name(raw)
    except ValueError as error:
        raise GameError(str(error)) from None


def clean_rules(scoring, target, straight, oklahoma):
    try:
        scoring_mode(scoring)
    except ValueError:
        raise GameError("bad_scoring") from None
    # type() and not isinstance(): True and 100.0 compare equal to 1 and 100, but the
    # engine's ScoreSheet takes only a real int.
    if type(target) is not int or target not in TARGETS:
        raise GameError("bad_target")
    if not isinstance(straight, bool) or not isinstance(oklahoma, bool):
        raise GameError("bad_option")
    return scoring, target, straight, oklahoma


@transaction.atomic
def open_table(name, scoring=HOLLYWOOD.name, target=100, straight=False, oklahoma=False, deal_seed=None,
               player_token=None, computer=None):
    """Open a table with its creator in seat 0, and the computer in seat 1 when `computer`
    names its level (games.computer.LEVELS): the match then starts at once.

    `player_token` is the secret of the browser's player cookie; without one (a program, a
    new browser) a new player is made and its secret returned in `Seated.player_token`.
    """
    name = clean_name(name)
    scoring, target, straight, oklahoma = clean_rules(scoring, target, straight, oklahoma)
    if computer is not None and computer not in LEVELS:
        raise GameError("bad_computer")
    table = Table(scoring=scoring, target=target, straight=straight, oklahoma=oklahoma, deal_seed=deal_seed)
    table.state = new_match(table).to_dict()
    table.save()
    seated = _sit(table, 0, name, player_token)
    if computer is not None:
        player = archive_players.computer_player(computer)
        # A secret nobody is ever given: the computer moves through the services, no socket.
        Seat.objects.create(table=table, number=1, name=player.name, player=player, computer_level=computer,
                            token_hash=identity.hash_token(identity.new_token()))
        _start_archived_match(table, seats_of(table))
        _bump(table, archive_id=table.archive_id, match_id=table.match_id)
    return seated


def take_seat(code, name, player_token=None, seat_token=None):
    """Seat 1 for the first person who asks. Someone whose `seat_token` already holds a seat
    here keeps it: one browser never holds both seats."""
    with transaction.atomic():
        table = get_table(code)
        seats = seats_of(table)
        held = seat_holding(seats.values(), seat_token)
        if held is not None:
            return Seated(table, held, seat_token)
        name = clean_name(name)
        if player_token is not None and seats[0].player == archive_players.player_for_token(player_token):
            # One person in both seats would play themself, and the match would count twice.
            raise GameError("same_player")
        try:
            with transaction.atomic():
                seated = _sit(table, 1, name, player_token)
        except IntegrityError:
            raise GameError("table_full") from None
        _start_archived_match(table, seats_of(table))
        _bump(table, archive_id=table.archive_id, match_id=table.match_id)
    rooms.forget(code)  # its seats and version changed: read afresh
    return seated._replace(change=Change(code, table.version))


@transaction.atomic
def renew_seat_secret(code, token):
    """A new secret for the seat `token` holds, returned as (seat, new secret): every other
    device with the old one (a cookie, the private link) is a spectator from now on.
    GameError("spectator") when `token` holds no seat here (any more)."""
    seats = seats_of(get_table(code))
    number = seat_holding(seats.values(), token)
    new_token = identity.new_token()
    # Compare-and-swap on the old hash: of two devices renewing at once, one wins.
    if number is None or not Seat.objects.filter(pk=seats[number].pk, token_hash=seats[number].token_hash).update(
        token_hash=identity.hash_token(new_token),
    ):
        raise GameError("spectator")
    # Its seats' secrets changed: this process reads them afresh (others are told by the hub).
    transaction.on_commit(lambda: rooms.forget(code))
    return number, new_token


def _sit(table, number, name, player_token):
    player, new_player_token = archive_players.player_for(name, player_token)
    token = identity.new_token()
    Seat.objects.create(table=table, number=number, name=name, token_hash=identity.hash_token(token), player=player)
    return Seated(table, number, token, new_player_token)


def play_move(code, seat, move, expected_version=None):
    """Play one move for a seat; returns the Change (the new version)."""
    if seat not in (0, 1):
        raise GameError("spectator")
    # Longer than any move: refused before the match is even looked at.
    if not isinstance(move, str) or len(move) > MAX_TEXT_LENGTH:
        raise GameError("illegal_move", "unknown_move")
    with changing(code) as room:
        table, match = room.table, room.match
        _check_version(table, expected_version)
        if len(room.seats) < 2:
            raise GameError("waiting_for_opponent")
        if table.ending:
            raise GameError("match_ended")
        hand_number, reshuffles = len(match.hands), len(match.hand.reshuffles)
        match.use_rng(rng_for(table))  # a seeded table reshuffles alike, cached or rebuilt
        try:
            match.play(move, seat)  # the engine checks the turn and the hand's end too
        except IllegalMove as error:
            raise _refusal(error) from None  # a refused move changed nothing
        reshuffled = len(match.hand.reshuffles) != reshuffles
        if not reshuffled and not match.is_over:
            return Change(code, _append_move(table, hand_number, seat, move))
        with transaction.atomic():
            version = _append_move(table, hand_number, seat, move)
            if reshuffled:
                _save_match(table, match)  # a reshuffle drew on chance: the log cannot replay it
            if match.is_over:
                archive.finish_archived_match(table.archive_id, match, timezone.now())
    return Change(code, version)


def ready_for_next_hand(code, seat):
    """Press "Next hand"; the next hand is dealt once both seats have pressed it.

    No version check: both players press from the same showdown, so the second press must
    not be refused as stale. Pressing again changes nothing.
    """
    with changing(code, seat) as room, transaction.atomic():
        if room.match.is_over or room.table.ending or room.match.hand.result is None:
            raise GameError("no_next_hand")
        both = _press(room, seat)
        if not both:
            return None if both is None else Change(code, None)
        room.match.use_rng(rng_for(room.table))
        room.match.next_hand()
        _save_match(room.table, room.match, bump=True)
    return Change(code, room.table.version)


def rematch(code, seat):
    """Ask for a rematch; a new match with the same rules starts once both ask.

    Like "Next hand", asking is idempotent: no version check.
    """
    with changing(code, seat) as room, transaction.atomic():
        if not (room.match.is_over or room.table.ending):
            raise GameError("match_not_over")
        both = _press(room, seat)
        if not both:
            return None if both is None else Change(code, None)
        table = room.table
        table.match_number += 1
        table.match_started = timezone.now()
        _start_archived_match(table, room.seats)
        Table.objects.filter(pk=table.pk).update(
            match_number=table.match_number, match_started=table.match_started, archive_id=table.archive_id,
            match_id=table.match_id, ending="", ended_by=None,
        )
        table.ending, table.ended_by = "", None
        room.match = new_match(table)
        _save_match(table, room.match, bump=True)
    return Change(code, table.version)


def set_presence(code, seat, connected):
    """Count a seat's open sockets. Presence is not a game change: no version bump."""
    if seat is None:
        return None
    seats = Seat.objects.filter(table__code=code, number=seat)
    if connected:
        seats.update(connections=F("connections") + 1, last_seen=timezone.now())
    else:
        # last_seen marks the leaving too: a claim counts the time away from here.
        seats.filter(connections__gt=0).update(connections=F("connections") - 1, last_seen=timezone.now())
    _republish_seats(code)
    return Change(code, None)


def resign(code, seat):
    """Give the match up: it ends at once, won by the other seat."""
    return _end_early(code, seat, ArchivedMatch.RESIGNED, loser=seat)


def claim_abandoned(code, seat):
    """Claim the match from an opponent the table has waited on for
    GAMES_CLAIM_AFTER_SECONDS while they were away: archived as left by them."""
    return _end_early(code, seat, ArchivedMatch.LEFT, loser=1 - seat, claim=True)


def _end_early(code, seat, ending, loser, claim=False):
    with changing(code, seat) as room, transaction.atomic():
        room.reload_seats()  # a claim reads the other seat's presence as it is now
        table, match = room.table, room.match
        if len(room.seats) < 2 or table.ending or match.is_over:
            raise GameError("match_not_running")
        if claim and not claimable(table, room.seats, match, seat):
            raise GameError("opponent_not_away")
        # The one place a match ends; then the table shows it as over, by whom and how.
        archive.finish_archived_match(table.archive_id, match, timezone.now(), ending, loser)
        _bump(table, ending=ending, ended_by=loser)
        table.ending, table.ended_by = ending, loser
    return Change(code, table.version)


def say(code, seat, text):
    """A chat line from a player (spectators only read): stored with the table, never a
    game change, so the version stays. Returns the stored line."""
    if seat not in (0, 1):
        raise GameError("spectator")
    text = identity.chat_text(text)
    if not text:
        raise GameError("chat_empty")
    if len(text) > ChatMessage.MAX_LENGTH or not all(identity.may_appear_in_a_name(c) for c in text):
        raise GameError("chat_refused")
    table = get_table(code)
    since = timezone.now() - timedelta(seconds=settings.GAMES_CHAT_WINDOW_SECONDS)
    if ChatMessage.objects.filter(table=table, seat=seat, created__gte=since).count() >= settings.GAMES_CHAT_BURST:
        raise GameError("rate_limited")
    return ChatMessage.objects.create(table=table, seat=seat, text=text)


def touch_presence(code, seat):
    """A live socket's heartbeat: a count left behind by a crashed server ages out.

    This process's copy of the seats is re-read at most once a beat, however many sockets
    beat, so what it shows of a seat kept alive by another process stays true; readers are
    shown anew only when what they see of the players changed."""
    now = timezone.now()
    room = rooms.get(code)
    with connection.cursor() as cursor:
        cursor.execute(TOUCH, [now, seat, code])
    if room is None or now - room.seats_read < PRESENCE_HEARTBEAT_DELTA:
        return
    with room.lock:
        shown = room.snapshot.states[None]["players"]
        room.reload_seats()
        if [player_state(seat) for seat in (room.seats.get(0), room.seats.get(1))] != shown:
            room.publish()


def _republish_seats(code):
    room = rooms.get(code)
    if room is not None:
        with room.lock:
            room.reload_seats()
            room.publish()


@contextmanager
def changing(code, seat=None):
    """The table's room, locked for a change, republished once the change has committed.

    `seat` given: the change is that seat's and is refused for a spectator. A refusal
    changes nothing; a change that fails with the database (Overtaken, a lost connection)
    leaves the room's match in doubt, so the room is dropped, to be rebuilt from the database.
    """
    if seat is not None and seat not in (0, 1):
        raise GameError("spectator")
    room = rooms.room(code)
    with room.lock:
        try:
            yield room
        except GameError as error:
            if isinstance(error, Overtaken):
                rooms.forget(code)
            raise
        except Exception:
            rooms.forget(code)
            raise
        room.publish()


def _check_version(table, expected_version):
    if expected_version is not None and expected_version != table.version:
        raise GameError("stale")


def _start_archived_match(table, seats):
    """Open the archive's record once both seats are taken; its public id is the match_id."""
    archived = archive.start_archived_match(
        table_code=table.code, match_number=table.match_number, players=[seats[0].player, seats[1].player],
        scoring=table.scoring, target=table.target, straight=table.straight, oklahoma=table.oklahoma,
        started_at=table.match_started,
    )
    table.archive_id, table.match_id = archived.pk, archived.public_id


def _refusal(error):
    """The GameError for the engine's IllegalMove."""
    if error.code in ENGINE_REFUSALS:
        return GameError(error.code)
    return GameError("illegal_move", error.code)


def _press(room, seat):
    """Mark `seat` ready: None if it already was (nothing changes), True once both seats are
    (both flags cleared), else False. Inside the caller's transaction, the table's row locked
    first, so two presses at once in two processes read each other's flag."""
    if room.seats[seat].ready:
        return None
    Table.objects.select_for_update().filter(pk=room.table.pk).first()
    other = Seat.objects.filter(table_id=room.table.pk, number=1 - seat, ready=True).exists()
    Seat.objects.filter(table_id=room.table.pk, number=seat).update(ready=not other)
    if other:
        Seat.objects.filter(table_id=room.table.pk).update(ready=False)
    room.reload_seats()
    return other


# The hot path: plain statements, no model building. PostgreSQL advances the version and logs
# the move in one statement, so a move is one round trip; SQLite (in the same process) runs
# the two statements in one transaction.
MOVES, TABLES = Move._meta.db_table, Table._meta.db_table
ADVANCE = f"UPDATE {TABLES} SET version = %s, updated = %s WHERE id = %s AND version = %s"
APPEND_MOVE = (
    f"INSERT INTO {MOVES} (table_id, match_number, hand_number, version, seat, text, created)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s)"
)
TOUCH = (f"UPDATE {Seat._meta.db_table} SET last_seen = %s"
         f" WHERE number = %s AND table_id = (SELECT id FROM {TABLES} WHERE code = %s)")
ADVANCE_AND_APPEND = (
    f"WITH advanced AS ({ADVANCE} RETURNING id)"
    f" INSERT INTO {MOVES} (table_id, match_number, hand_number, version, seat, text, created)"
    " SELECT id, %s, %s, %s, %s, %s, %s FROM advanced"
)


def _append_move(table, hand_number, seat, move):
    """Advance the version and log the move, or raise Overtaken when another writer got there
    first (the version moved on, or the log already holds this version)."""
    version, now = table.version + 1, timezone.now()
    row = [table.match_number, hand_number, version, seat, move, now]
    try:
        if connection.vendor == "postgresql":
            # One statement is atomic by itself; inside a caller's transaction it needs a
            # savepoint, or its failure would abort that transaction.
            with savepoint_if_in_transaction(), connection.cursor() as cursor:
                cursor.execute(ADVANCE_AND_APPEND, [version, now, table.pk, table.version, *row])
                if cursor.rowcount != 1:
                    raise Overtaken()
        else:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(ADVANCE, [version, now, table.pk, table.version])
                if cursor.rowcount != 1:
                    raise Overtaken()
                cursor.execute(APPEND_MOVE, [table.pk, *row])
    except IntegrityError:
        raise Overtaken() from None
    table.version = version
    return version


def savepoint_if_in_transaction():
    return transaction.atomic() if connection.in_atomic_block else nullcontext()


def _save_match(table, match, bump=False):
    """Save the whole match as of now (its snapshot), advancing the version when the save is
    the change itself (a deal, a rematch) rather than part of a move."""
    version = table.version + 1 if bump else table.version
    updated = Table.objects.filter(pk=table.pk, version=table.version).update(
        version=version, state=match.to_dict(), state_version=version, updated=timezone.now(),
    )
    if not updated:
        raise Overtaken()
    table.version = table.state_version = version


def _bump(table, **fields):
    """Compare-and-swap the version; 0 rows updated means someone else got there first."""
    version = table.version + 1
    updated = Table.objects.filter(pk=table.pk, version=table.version).update(
        version=version, updated=timezone.now(), **fields,
    )
    if not updated:
        raise Overtaken()
    table.version = version
    return version
