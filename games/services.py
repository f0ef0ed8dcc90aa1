"""The only code that writes tables, seats and moves.

Each operation is one synchronous function in one transaction: load the table, check
the request with the engine, write the move and the new state, and bump the version
with a compare-and-swap (`filter(version=v).update(version=v + 1)`), which is safe on
SQLite and PostgreSQL alike. Consumers call these through `database_sync_to_async`
and broadcast only after they return. Expected refusals raise `GameError(code)`;
`games.messages` turns a code into words.
"""

import hashlib
import hmac
import secrets

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import matches
from games.archive import players as archive_players
from games.archive import record as archive
from games.engine import SCORINGS
from games.models import Move, Seat, Table

TARGETS = (100, 250)
# Refusals of the engine that the protocol names by themselves; any other is an
# "illegal_move" carrying the engine's code as its reason.
ENGINE_REFUSALS = ("not_your_turn", "hand_over")


class GameError(Exception):
    """An expected refusal: a code for `games.messages`, never a crash."""

    def __init__(self, code, reason=None):
        super().__init__(code if reason is None else f"{code}: {reason}")
        self.code = code
        self.reason = reason  # the engine's reason code for an illegal move


def new_token():
    return secrets.token_urlsafe(24)


def hash_token(token):
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(raw):
    """1 to 24 printable characters after trimming (the archive's rule), else GameError."""
    try:
        return archive_players.clean_name(raw)
    except ValueError as error:
        raise GameError(str(error)) from None


def clean_rules(scoring, target, straight, oklahoma):
    if scoring not in SCORINGS:
        raise GameError("bad_scoring")
    # type() and not isinstance(): True and 100.0 compare equal to 1 and 100, but the
    # engine's ScoreSheet takes only a real int.
    if type(target) is not int or target not in TARGETS:
        raise GameError("bad_target")
    if not isinstance(straight, bool) or not isinstance(oklahoma, bool):
        raise GameError("bad_option")
    return scoring, target, straight, oklahoma


@transaction.atomic
def open_table(name, scoring="hollywood", target=100, straight=False, oklahoma=False, deal_seed=None, player=None):
    """Open a table with its creator in seat 0; returns (table, the seat's token).

    `player` is the archive's Player of the browser's cookie; a program gets a new one.
    """
    name = clean_name(name)
    scoring, target, straight, oklahoma = clean_rules(scoring, target, straight, oklahoma)
    table = Table(scoring=scoring, target=target, straight=straight, oklahoma=oklahoma, deal_seed=deal_seed)
    table.state = matches.new_match(table, matches.rng_for(table)).to_dict()
    table.save()
    token = new_token()
    Seat.objects.create(table=table, number=0, name=name, token_hash=hash_token(token), player=_player(name, player))
    return table, token


def get_table(code, lock=False):
    """The table by its code; `lock` (inside a transaction) holds its row until the end."""
    tables = Table.objects.select_for_update() if lock else Table.objects
    table = tables.filter(code=code).first() if isinstance(code, str) else None
    if table is None:
        raise GameError("unknown_table")
    return table


@transaction.atomic
def take_seat(code, name, player=None):
    """Seat 1 for the first person who asks; returns (seat number, token)."""
    name = clean_name(name)
    table = get_table(code)
    if player is not None and Seat.objects.filter(table=table, number=0, player=player).exists():
        # One person in both seats would play themself, and the match would count twice.
        raise GameError("same_player")
    token = new_token()
    try:
        with transaction.atomic():
            Seat.objects.create(table=table, number=1, name=name, token_hash=hash_token(token),
                                player=_player(name, player))
    except IntegrityError:
        raise GameError("table_full") from None
    _start_archived_match(table, _seats(table))
    _bump(table, archive_id=table.archive_id)
    return 1, token


def find_seat(code, token):
    """The seat number this token holds at the table, or None for a spectator."""
    table = get_table(code)
    return seat_holding(Seat.objects.filter(table=table), token)


def seat_holding(seats, token):
    """The number of the seat among `seats` whose secret is `token`, else None."""
    if not token or not isinstance(token, str):
        return None
    digest = hash_token(token)
    for seat in seats:
        if hmac.compare_digest(seat.token_hash, digest):
            return seat.number
    return None


def current_version(code):
    return get_table(code).version


def load(code):
    """Everything needed to show a table: (table, seats by number, match). Read only."""
    table = get_table(code)
    return table, _seats(table), matches.for_reading(table)


def _seats(table):
    return {seat.number: seat for seat in Seat.objects.filter(table=table)}


@transaction.atomic
def play_move(code, seat, move, expected_version=None):
    """Play one move for a seat; returns the new version."""
    table, seats = _load_for_change(code, seat, expected_version)
    if len(seats) < 2:
        raise GameError("waiting_for_opponent")
    # Longer than Move.text can hold: no move at all.
    if not isinstance(move, str) or len(move) > 16:
        raise GameError("illegal_move", "unknown_move")
    match = matches.for_writing(table)
    hand_number = len(match.results) + 1
    try:
        match.play(move, seat)  # the engine checks the turn and the hand's end too
    except matches.IllegalMove as error:
        # A refused move changed nothing: keep the match cached, or every bad frame
        # would cost a replay of the whole match.
        matches.put_back(table, match)
        raise _refusal(error) from None
    version = _save(table, match)
    Move.objects.create(
        table=table, match_number=table.match_number, hand_number=hand_number,
        version=version, seat=seat, text=move,
    )
    if match.is_over:
        _archive_finished_match(table, seats, match)
    return version


@transaction.atomic
def ready_for_next_hand(code, seat):
    """Press "Next hand"; the next hand is dealt once both seats have pressed it.

    No version check: both players press from the same showdown, and pressing twice
    is harmless, so the second press must not be refused as stale.
    """
    table, seats = _load_for_change(code, seat)
    # Checked on the shared copy: a refusal leaves the cached match in place.
    shown = matches.for_reading(table)
    if shown.is_over or shown.hand.result is None:
        raise GameError("no_next_hand")
    match = matches.for_writing(table)
    if not _both_ready(seats, seat):
        return _save(table, match, state_changed=False)
    match.next_hand()
    return _save(table, match)


@transaction.atomic
def rematch(code, seat):
    """Ask for a rematch; a new match with the same rules starts once both ask.

    Like "Next hand", asking is idempotent: no version check.
    """
    table, seats = _load_for_change(code, seat)
    if not matches.for_reading(table).is_over:
        raise GameError("match_not_over")
    if not _both_ready(seats, seat):
        return _save(table, matches.for_writing(table), state_changed=False)
    table.match_number += 1
    table.match_started = timezone.now()
    _start_archived_match(table, seats)
    Table.objects.filter(pk=table.pk).update(
        match_number=table.match_number, match_started=table.match_started, archive_id=table.archive_id,
    )
    return _save(table, matches.new_match(table, matches.rng_for(table)))


def set_presence(code, seat, connected):
    """Count a seat's open sockets. Presence is not a game change: no version bump."""
    if seat is None:
        return
    seats = Seat.objects.filter(table__code=code, number=seat)
    if connected:
        seats.update(connections=F("connections") + 1, last_seen=timezone.now())
    else:
        seats.filter(connections__gt=0).update(connections=F("connections") - 1)


def touch_presence(code, seat):
    """A live socket's heartbeat: a count left behind by a crashed server ages out."""
    Seat.objects.filter(table__code=code, number=seat).update(last_seen=timezone.now())


def _player(name, player):
    return player if player is not None else archive_players.create_player(name)[0]


def _archive_fields(table, seats):
    return {
        "table_code": table.code, "match_number": table.match_number,
        "players": [seats[0].player, seats[1].player], "scoring": table.scoring, "target": table.target,
        "options": matches.options_of(table),
    }


def _start_archived_match(table, seats):
    """Open the archive's record once both seats are taken; its id is the match_id."""
    if seats[0].player is None or seats[1].player is None:
        return  # a table from before players existed: nothing to archive
    archived = archive.start_archived_match(started_at=table.match_started, **_archive_fields(table, seats))
    table.archive_id = archived.pk


def _archive_finished_match(table, seats, match):
    """Every match ending at a table goes through here, inside the last move's transaction."""
    if table.archive_id is None:
        return
    archive.record_finished_match(started_at=table.match_started, match=match, **_archive_fields(table, seats))


def _load_for_change(code, seat, expected_version=None):
    if seat not in (0, 1):
        raise GameError("spectator")
    # Locked (PostgreSQL; SQLite's IMMEDIATE transactions already serialise writers):
    # two players pressing "Next hand" at once both count, as the second reads the
    # first one's ready flag instead of losing the version compare-and-swap.
    table = get_table(code, lock=True)
    if expected_version is not None and expected_version != table.version:
        raise GameError("stale")
    return table, _seats(table)


def _refusal(error):
    """The GameError for the engine's IllegalMove."""
    if error.code in ENGINE_REFUSALS:
        return GameError(error.code)
    return GameError("illegal_move", error.code)


def _both_ready(seats, seat):
    """Mark the seat ready; True (and both flags cleared) once both seats are."""
    Seat.objects.filter(pk=seats[seat].pk).update(ready=True)
    other = seats.get(1 - seat)
    if other is None or not other.ready:
        return False
    Seat.objects.filter(table_id=seats[seat].table_id).update(ready=False)
    return True


def _save(table, match, state_changed=True):
    version = _bump(table, state=match.to_dict()) if state_changed else _bump(table)
    matches.remember(table, match)
    return version


def _bump(table, **fields):
    """Compare-and-swap the version; 0 rows updated means someone else got there first."""
    version = table.version + 1
    updated = Table.objects.filter(pk=table.pk, version=table.version).update(
        version=version, updated=timezone.now(), **fields,
    )
    if not updated:
        raise GameError("stale")
    table.version = version
    return version
