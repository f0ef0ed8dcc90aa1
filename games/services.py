"""The only code that writes tables, seats and moves.

Each operation is one synchronous function in one transaction: load the table, check
the request with the engine, write the move and the new state, and bump the version
with a compare-and-swap (`filter(version=v).update(version=v + 1)`), which is safe on
SQLite and PostgreSQL alike. Consumers call these through `database_sync_to_async`
and broadcast only after they return. Expected refusals raise `GameError(code)`;
`games.messages` turns a code into words.
"""

from typing import NamedTuple

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import identity, matches
from games.archive import players as archive_players
from games.archive import record as archive
from games.engine import HOLLYWOOD, TARGETS, IllegalMove, scoring_mode
from games.engine.moves import MAX_TEXT_LENGTH
from games.errors import GameError
from games.archive.models import ArchivedMatch
from games.models import ChatMessage, Move, Seat, Table
from games.state import claimable, get_table, seat_holding, seats_of

# Refusals of the engine that the protocol names by themselves; any other is an
# "illegal_move" carrying the engine's code as its reason.
ENGINE_REFUSALS = ("not_your_turn", "hand_over")


class Seated(NamedTuple):
    """Who took a seat: the seat's number and secret, and the secret of a player created
    for them (None when their player cookie named one), for the caller to hand over."""

    table: Table
    seat: int
    token: str
    player_token: str = None


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
               player_token=None):
    """Open a table with its creator in seat 0.

    `player_token` is the secret of the browser's player cookie; without one (a program, a
    new browser) a new player is made and its secret returned in `Seated.player_token`.
    """
    name = clean_name(name)
    scoring, target, straight, oklahoma = clean_rules(scoring, target, straight, oklahoma)
    table = Table(scoring=scoring, target=target, straight=straight, oklahoma=oklahoma, deal_seed=deal_seed)
    table.state = matches.new_match(table, matches.rng_for(table)).to_dict()
    table.save()
    return _sit(table, 0, name, player_token)


@transaction.atomic
def take_seat(code, name, player_token=None, seat_token=None):
    """Seat 1 for the first person who asks. Someone whose `seat_token` already holds a seat
    here keeps it: one browser never holds both seats."""
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
    _bump(table, archive_id=table.archive_id)
    return seated


def _sit(table, number, name, player_token):
    player, new_player_token = archive_players.player_for(name, player_token)
    token = identity.new_token()
    Seat.objects.create(table=table, number=number, name=name, token_hash=identity.hash_token(token), player=player)
    return Seated(table, number, token, new_player_token)


@transaction.atomic
def play_move(code, seat, move, expected_version=None):
    """Play one move for a seat; returns the new version."""
    table, seats = _load_for_change(code, seat, expected_version)
    if len(seats) < 2:
        raise GameError("waiting_for_opponent")
    if table.ending:
        raise GameError("match_ended")
    # Longer than any move: refused before the match is even loaded.
    if not isinstance(move, str) or len(move) > MAX_TEXT_LENGTH:
        raise GameError("illegal_move", "unknown_move")
    match = matches.for_writing(table)
    hand_number = len(match.hands)
    try:
        match.play(move, seat)  # the engine checks the turn and the hand's end too
    except IllegalMove as error:
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
        archive.finish_archived_match(table.archive_id, match, timezone.now())
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
    if shown.is_over or table.ending or shown.hand.result is None:
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
    if not (table.ending or matches.for_reading(table).is_over):
        raise GameError("match_not_over")
    if not _both_ready(seats, seat):
        return _save(table, matches.for_writing(table), state_changed=False)
    table.match_number += 1
    table.match_started = timezone.now()
    _start_archived_match(table, seats)
    Table.objects.filter(pk=table.pk).update(
        match_number=table.match_number, match_started=table.match_started, archive_id=table.archive_id,
        ending="", ended_by=None,
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
        # last_seen marks the leaving too: a claim counts the time away from here.
        seats.filter(connections__gt=0).update(connections=F("connections") - 1, last_seen=timezone.now())


@transaction.atomic
def resign(code, seat):
    """Give the match up: it ends at once, won by the other seat."""
    return _end_early(code, seat, ArchivedMatch.RESIGNED, loser=seat)


@transaction.atomic
def claim_abandoned(code, seat):
    """Claim the match from an opponent the table has waited on for
    GAMES_CLAIM_AFTER_SECONDS while they were away: archived as left by them."""
    return _end_early(code, seat, ArchivedMatch.LEFT, loser=1 - seat, claim=True)


def _end_early(code, seat, ending, loser, claim=False):
    table, seats = _load_for_change(code, seat)
    match = matches.for_reading(table)
    if len(seats) < 2 or table.ending or match.is_over:
        raise GameError("match_not_running")
    if claim and not claimable(table, seats, match, seat):
        raise GameError("opponent_not_away")
    # The one place a match ends; then the table shows it as over, by whom and how.
    archive.finish_archived_match(table.archive_id, match, timezone.now(), ending, loser)
    return _bump(table, ending=ending, ended_by=loser)


def say(code, seat, text):
    """A chat line from a player (spectators only read): stored with the table, never a
    game change, so the version stays. Returns the stored line."""
    if seat not in (0, 1):
        raise GameError("spectator")
    text = text.strip() if isinstance(text, str) else ""
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
    """A live socket's heartbeat: a count left behind by a crashed server ages out."""
    Seat.objects.filter(table__code=code, number=seat).update(last_seen=timezone.now())


def _start_archived_match(table, seats):
    """Open the archive's record once both seats are taken; its id is the match_id."""
    archived = archive.start_archived_match(
        table_code=table.code, match_number=table.match_number, players=[seats[0].player, seats[1].player],
        scoring=table.scoring, target=table.target, straight=table.straight, oklahoma=table.oklahoma,
        started_at=table.match_started,
    )
    table.archive_id = archived.pk


def _load_for_change(code, seat, expected_version=None):
    if seat not in (0, 1):
        raise GameError("spectator")
    # Locked (PostgreSQL; SQLite's IMMEDIATE transactions already serialise writers):
    # two players pressing "Next hand" at once both count, as the second reads the
    # first one's ready flag instead of losing the version compare-and-swap.
    table = get_table(code, lock=True)
    if expected_version is not None and expected_version != table.version:
        raise GameError("stale")
    return table, seats_of(table)


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
