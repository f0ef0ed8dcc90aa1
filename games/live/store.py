"""The live table's rows in the database: the only module that writes them, called by the
table's owner (games.live.owner) inside its lock, and by the opening of a table
(games.live.opening) before it has one.

A move is one round trip's worth of SQL: the move appended to the log (unique per table and
version) and the table's version advanced by a compare-and-swap (`UPDATE … WHERE version =
v`), safe on SQLite and PostgreSQL alike. Every other change compare-and-swaps the version
too, so a writer that fell behind another process is refused (`Overtaken`) and changes
nothing. The whole match is saved (`Table.state`) only when chance was drawn on: a deal, a
rematch, a reshuffle.
"""


from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from games.errors import GameError
from games.identity import is_public_id
from games.live.events import PROCESS
from games.models import Audience, ChatMessage, Move, Presence, Seat, Table


class Overtaken(GameError):
    """The database refused a write: another writer (another process) got there first."""

    def __init__(self):
        super().__init__("stale")


def table_row(code):
    table = Table.objects.filter(code=code).first() if is_public_id(code) else None
    if table is None:
        raise GameError("unknown_table")
    return table


def seat_rows(table, alive_since=None):
    """The table's seats by number, each with what games.live.presence reads of its sockets:
    `here` (open in this process) and `elsewhere_beat` (the latest beat of another process
    counting any), and the table's spectators' sockets (`watching`: this process's and those
    of the processes that beat since `alive_since`), in the one query."""
    sockets = Q(presences__connections__gt=0)
    seats = Seat.objects.filter(table_id=table.pk).annotate(
        here=Sum("presences__connections", filter=sockets & Q(presences__process=PROCESS), default=0),
        elsewhere_beat=Max("presences__beat", filter=sockets & ~Q(presences__process=PROCESS)),
        watching=Subquery(spectators_of(OuterRef("table_id"), alive_since or timezone.now())),
    )
    return {seat.number: seat for seat in seats}


def spectators_of(table_id, alive_since):
    """The sum of the spectators' sockets at a table, as a subquery of the seats' query."""
    return Audience.objects.filter(Q(process=PROCESS) | Q(beat__gt=alive_since), table_id=table_id).values(
        "table_id").annotate(watching=Sum("connections")).values("watching")


def moves_after(table, version, up_to):
    """(seat, text) of the moves logged after `version`, up to and including `up_to`: bounded
    by the version the table row was read at, so a move another process commits meanwhile is
    never replayed under an older version's label."""
    return Move.objects.filter(table_id=table.pk, version__gt=version, version__lte=up_to).order_by(
        "version").values_list("seat", "text")


def versions(codes):
    """{code: the database's version} of these tables, in one query."""
    return dict(Table.objects.filter(code__in=codes).values_list("code", "version"))


# The hot path: plain statements, no model building, no savepoints (two statements more a
# move each: a quarter of a move's writes on SQLite). PostgreSQL advances the version and
# logs the move in one statement, so a move is one round trip; SQLite (in the same process)
# runs the two statements in one transaction.
MOVES, TABLES = Move._meta.db_table, Table._meta.db_table
ADVANCE = f"UPDATE {TABLES} SET version = %s, updated = %s WHERE id = %s AND version = %s"
APPEND_MOVE = (
    f"INSERT INTO {MOVES} (table_id, match_number, hand_number, version, seat, text, by_clock, created)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)
TAKE_BACK_MOVE = f"DELETE FROM {MOVES} WHERE table_id = %s AND version = %s"
# PostgreSQL's: the version advanced only where the log holds no move of the new one yet,
# and the move logged only where it was (so the statement cannot break the log's uniqueness).
ADVANCE_AND_APPEND = (
    f"WITH advanced AS ({ADVANCE} AND NOT EXISTS (SELECT 1 FROM {MOVES} WHERE table_id = %s AND version = %s)"
    " RETURNING id)"
    f" INSERT INTO {MOVES} (table_id, match_number, hand_number, version, seat, text, by_clock, created)"
    " SELECT id, %s, %s, %s, %s, %s, %s, %s FROM advanced"
)


def append_move(table, hand_number, seat, move, by_clock=False):
    """Advance the version and log the move (`by_clock`: the clock played it for the seat),
    or raise Overtaken when another writer got there first (the version moved on, or the log
    already holds this version)."""
    version, now = table.version + 1, timezone.now()
    row = [table.match_number, hand_number, version, seat, move, by_clock, now]
    if connection.vendor == "postgresql":
        append_on_postgresql(table, version, now, row)
    else:
        append_on_sqlite(table, version, now, row)
    table.version = version
    return version


def append_on_postgresql(table, version, now, row):
    """PostgreSQL: one statement, which refuses a version the log already holds instead of
    failing on it, so it needs no savepoint inside the batch's transaction (where a failed
    statement aborts the whole transaction): a savepoint and its release were two round
    trips more a move. A statement that fails all the same fails the batch, as any database
    error does (games.live.batch)."""
    with connection.cursor() as cursor:
        cursor.execute(ADVANCE_AND_APPEND, [version, now, table.pk, table.version, table.pk, version, *row])
        if cursor.rowcount != 1:
            raise Overtaken()


def append_on_sqlite(table, version, now, row):
    """SQLite: the move logged, then the version advanced, in the caller's transaction (or one
    of their own) without a savepoint, which would cost two statements more a move: a log
    that already holds this version refuses the first statement, which SQLite, unlike
    PostgreSQL, undoes alone; an advance refused takes back the move just logged. Either way
    nothing is written (SQLite lets one writer at a time: nobody saw the row meanwhile)."""
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        try:
            cursor.execute(APPEND_MOVE, [table.pk, *row])
        except IntegrityError:
            advanced = False
        else:
            cursor.execute(ADVANCE, [version, now, table.pk, table.version])
            advanced = cursor.rowcount == 1
            if not advanced:
                cursor.execute(TAKE_BACK_MOVE, [table.pk, version])
    if not advanced:
        raise Overtaken()


def clock_marks(table, hand_number):
    """The places in hand `hand_number` of the current match of the moves the clock played
    (a hand's moves are its log's rows, in order)."""
    flags = Move.objects.filter(table_id=table.pk, match_number=table.match_number, hand_number=hand_number).order_by(
        "version").values_list("by_clock", flat=True)
    return [index for index, by_clock in enumerate(flags) if by_clock]


def match_clock_marks(table):
    """{hand number: places in its moves of those the clock played} of the current match, for
    the archive (None at a table without a clock: nothing to read)."""
    if not table.clock:
        return None
    marks, places = {}, {}
    for hand_number, by_clock in Move.objects.filter(table_id=table.pk, match_number=table.match_number).order_by(
            "version").values_list("hand_number", "by_clock"):
        place = places[hand_number] = places.get(hand_number, -1) + 1
        if by_clock:
            marks.setdefault(hand_number, []).append(place)
    return marks


def time_ran_out(table, now):
    """Whether the table's clock has run out as the database has it, at the version the owner
    holds (another process may have played the move already)."""
    return Table.objects.filter(pk=table.pk, version=table.version, clock_deadline__lte=now).exists()


def wind_clock(table, deadline, banks):
    """The turn clock's deadline and banks, written with the change that started the turn (in
    its transaction, at the version that change wrote)."""
    if not Table.objects.filter(pk=table.pk, version=table.version).update(clock_deadline=deadline, clock_banks=banks):
        raise Overtaken()
    table.clock_deadline, table.clock_banks = deadline, banks


def save_match(table, match, bump=False, **fields):
    """Save the whole match as of now (its snapshot), advancing the version when the save is
    the change itself (a deal, a rematch) rather than part of a move; `fields` with it."""
    version = table.version + 1 if bump else table.version
    updated = Table.objects.filter(pk=table.pk, version=table.version).update(
        version=version, state=match.to_dict(), state_version=version, updated=timezone.now(), **fields,
    )
    if not updated:
        raise Overtaken()
    table.version = table.state_version = version
    for name, value in fields.items():
        setattr(table, name, value)


def wait_for_deal(table, waiting):
    """The next hand's deal (NextDeal.to_dict(): its secret seed) on the row, in the transaction
    of the move that ended the hand, at the version it wrote: stored before anyone is shown its
    commitment (docs/fairness.md)."""
    if not Table.objects.filter(pk=table.pk, version=table.version).update(next_deal=waiting):
        raise Overtaken()
    table.next_deal = waiting


def bump(table, **fields):
    """Compare-and-swap the version with `fields`; Overtaken when someone else got there first."""
    version = table.version + 1
    if not Table.objects.filter(pk=table.pk, version=table.version).update(
        version=version, updated=timezone.now(), **fields,
    ):
        raise Overtaken()
    table.version = version
    for name, value in fields.items():
        setattr(table, name, value)
    return version


def press(table, seat):
    """Mark `seat` ready, inside the caller's transaction with the table's row locked first,
    so that two presses at once in two processes read each other's flag: True once both seats
    are (both flags then cleared), else False. Plain statements, as a move's: the ORM's lock
    (`select_for_update().first()`) built the whole Table row, its match's JSON decoded, only
    to lock it, twice a hand. SQLite needs no row lock: its transaction holds the database's
    from its start (transaction_mode IMMEDIATE, settings)."""
    with connection.cursor() as cursor:
        if connection.features.has_select_for_update:
            cursor.execute(LOCK_TABLE, [table.pk])
        cursor.execute(OTHER_READY, [table.pk, 1 - seat])
        other = cursor.fetchone() is not None
        if other:
            cursor.execute(NOBODY_READY, [table.pk])
        else:
            cursor.execute(SEAT_READY, [table.pk, seat])
    return other


SEATS = Seat._meta.db_table
LOCK_TABLE = f"SELECT id FROM {TABLES} WHERE id = %s FOR UPDATE"
OTHER_READY = f"SELECT 1 FROM {SEATS} WHERE table_id = %s AND number = %s AND ready"
NOBODY_READY = f"UPDATE {SEATS} SET ready = false WHERE table_id = %s"
SEAT_READY = f"UPDATE {SEATS} SET ready = true WHERE table_id = %s AND number = %s"


def count_connection(table, seat, opened):
    """One socket of `seat` more (or fewer) in this process, in two statements (the count
    upserted, the seat's `last_seen` set); `last_seen` marks the leaving too: a claim counts the
    time away from then."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(OPEN_PRESENCE if opened else CLOSE_PRESENCE,
                       [connection.ops.adapt_datetimefield_value(now), PROCESS, table.pk, seat])
    Seat.objects.filter(table_id=table.pk, number=seat).update(last_seen=now)


PRESENCES = Presence._meta.db_table
# Counted up by an upsert (PostgreSQL and SQLite alike): the row is made by a seat's first
# socket in this process; nothing is written for a seat that does not exist.
OPEN_PRESENCE = (f"INSERT INTO {PRESENCES} (seat_id, beat, process, connections) "
                 f"SELECT id, %s, %s, 1 FROM {SEATS} WHERE table_id = %s AND number = %s "
                 f"ON CONFLICT (seat_id, process) DO UPDATE SET connections = {PRESENCES}.connections + 1, "
                 f"beat = excluded.beat")
CLOSE_PRESENCE = (f"UPDATE {PRESENCES} SET connections = connections - 1, beat = %s WHERE process = %s "
                  f"AND connections > 0 AND seat_id = (SELECT id FROM {SEATS} WHERE table_id = %s AND number = %s)")


def count_spectator(table, opened):
    """One spectator's socket more (or fewer) in this process."""
    now = timezone.now()
    if opened:
        Audience.objects.get_or_create(table_id=table.pk, process=PROCESS, defaults={"beat": now})
        Audience.objects.filter(table_id=table.pk, process=PROCESS).update(connections=F("connections") + 1, beat=now)
    else:
        Audience.objects.filter(table_id=table.pk, process=PROCESS, connections__gt=0).update(
            connections=F("connections") - 1, beat=now)


def beat_process(now):
    """This process is alive: every presence it counts, beaten in one statement a kind."""
    Presence.objects.filter(process=PROCESS, connections__gt=0).update(beat=now)
    Audience.objects.filter(process=PROCESS, connections__gt=0).update(beat=now)


def recount_process(counts):
    """Set this process's presence to `counts` ({(table code, seat number): open sockets},
    a spectators' number None), what it holds in memory: after an outage some of its counts
    were never written."""
    now = timezone.now()
    Presence.objects.filter(process=PROCESS).update(connections=0, beat=now)
    Audience.objects.filter(process=PROCESS).update(connections=0, beat=now)
    for (code, number), connections in counts.items():
        if number is None:
            table = Table.objects.filter(code=code).values_list("pk", flat=True).first()
            if table is not None:
                Audience.objects.update_or_create(table_id=table, process=PROCESS,
                                                  defaults={"connections": connections, "beat": now})
            continue
        seat = Seat.objects.filter(table__code=code, number=number).values_list("pk", flat=True).first()
        if seat is not None:
            Presence.objects.update_or_create(seat_id=seat, process=PROCESS,
                                              defaults={"connections": connections, "beat": now})


def seen_since(table, cutoff):
    """Whether a socket of the table's seats was open or seen since `cutoff`."""
    return Seat.objects.filter(table_id=table.pk, last_seen__gte=cutoff).exists() or Presence.objects.filter(
        seat__table_id=table.pk, connections__gt=0, beat__gte=cutoff).exists()


def forget_dead_presence(cutoff):
    """The rows of processes silent since `cutoff`: gone long ago, their sockets with them."""
    return Presence.objects.filter(beat__lt=cutoff).delete()[0] + Audience.objects.filter(beat__lt=cutoff).delete()[0]


def add_chat_line(table, seat, text):
    return ChatMessage.objects.create(table=table, seat=seat, text=text)


def chat_lines_since(table, seat, since):
    return ChatMessage.objects.filter(table=table, seat=seat, created__gte=since).count()


def latest_chat(table, limit):
    return list(reversed(ChatMessage.objects.filter(table=table).order_by("-id")[:limit]))


def add_table(table):
    table.save()


def add_seat(table, number, name, token_hash, player, computer_level=""):
    """A seat taken; IntegrityError when another got there first (the seat's number is unique)."""
    return Seat.objects.create(table=table, number=number, name=name, token_hash=token_hash, player=player,
                               computer_level=computer_level)


def start_match(table):
    """A rematch's row: its number, start and archive record, no ending, fresh banks."""
    Table.objects.filter(pk=table.pk).update(
        match_number=table.match_number, match_started=table.match_started, archive_id=table.archive_id,
        match_id=table.match_id, ending="", ended_by=None, clock_banks=table.clock_banks,
    )
    table.ending, table.ended_by = "", None


def renew_token(seat, token_hash):
    """Compare-and-swap on the seat's old hash: of two devices renewing at once, one wins."""
    return bool(Seat.objects.filter(pk=seat.pk, token_hash=seat.token_hash).update(token_hash=token_hash))


def locked_row(table):
    """The table's row read afresh and locked for the caller's transaction."""
    return Table.objects.select_for_update().get(pk=table.pk)


def delete_table(table):
    table.delete()
