"""Filling the archive in bulk, for `simulate_matches` and the benchmark.

Rows are built by the same `record.build_rows` as a live match's, so they are what
live play would have stored; only the writes are batched. On PostgreSQL they go in
with COPY (batched INSERTs filled 65 matches/s), and a scratch fill may set the indexes
aside and build them once after (`indexes_after`); elsewhere with bulk_create and one
executemany. The hands are most of the bytes, about 1.3 KB each with their index on
PostgreSQL (deck, moves and result as JSON; no sheet since migration 0004, when they were
2 KB): a million matches with all their 14.6 million hands is some 20 GB and filled in
12 minutes here (it had been 29 GB and about an hour; 200,000 matches took 339 s, now 126 s);
with one match's hands in ten a million took 310 s before migration 0004.
"""

import json
import random
import secrets
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from games.archive.models import ArchivedHand, ArchivedMatch, Player, PlayerResult
from games.archive.record import hand_rows, result_rows, streak_after
from games.archive.simulate import play_match
from games.archive.stats import rebuild_all_totals
from games.engine import HOLLYWOOD, ONE_GAME, SINGLE_HAND
from games.identity import hash_token, new_token

NAMES = ["Ana", "Ben", "Cyd", "Dana", "Emre", "Fatma", "Gustav", "Hana", "Iker", "Jana", "Kemal", "Lucía"]
SCORING_MIX = [HOLLYWOOD.name] * 5 + [ONE_GAME.name] * 3 + [SINGLE_HAND.name] * 2


def create_players(count, rng, batch_size=1000):
    """`count` players with made-up names; their secrets are random and thrown away."""
    players = [
        Player(name=f"{rng.choice(NAMES)} {n}", token_hash=hash_token(new_token())) for n in range(count)
    ]
    return Player.objects.bulk_create(players, batch_size=batch_size)


def played_matches(count, rng):
    """`count` matches played out by the engine, in a mix of modes, targets and options."""
    return [
        play_match(rng.choice(SCORING_MIX), rng.choice((100, 100, 250)), rng.random() < 0.1, rng.random() < 0.1, rng=rng)
        for _ in range(count)
    ]


def zipf_weights(count):
    """Cumulative weights 1, 1/2, 1/3, …: a few players busy, most occasional, as on a real site."""
    total, cumulative = 0.0, []
    for rank in range(1, count + 1):
        total += 1 / rank
        cumulative.append(total)
    return cumulative


def pick_pair(players, rng, weights=None):
    first = rng.choices(players, cum_weights=weights)[0] if weights else rng.choice(players)
    second = rng.choice(players)
    while second.pk == first.pk:
        second = rng.choice(players)
    return (first, second) if rng.random() < 0.5 else (second, first)


def load_matches(games, players, count, rng, batch_size=500, weights=None, end=None, progress=None, hands_every=1,
                 indexes_after=False):
    """Store `count` finished matches, each one of `games` between two of `players`.

    Dates run from about a year ago to `end`, in order, so streaks come out right.
    `hands_every` N > 1 stores the hands of one match in N only (the benchmark's quick
    fills: the hands are nine tenths of the bytes, and only a match's own page reads them).
    `indexes_after` (PostgreSQL; an archive nobody reads meanwhile, as the benchmark's
    scratch database): the archive's secondary indexes and constraints are dropped for
    the fill and built once after it, instead of being kept up to date row by row.
    """
    end = end or timezone.now()
    start = end - timedelta(days=365)
    step = (end - start) / max(count, 1)
    streaks, cache = {}, {}
    with indexes_set_aside(FILLED if indexes_after and connection.vendor == "postgresql" else []):
        for first in range(0, count, batch_size):
            batch = []
            for index in range(first, min(first + batch_size, count)):
                finished = start + step * index
                batch.append(new_match(rng.choice(games), pick_pair(players, rng, weights), finished))
            store_batch(batch, streaks, cache, hands_every)
            if progress:
                progress(min(first + batch_size, count))
    rebuild_all_totals()


FILLED = [ArchivedMatch, PlayerResult, ArchivedHand]


class indexes_set_aside:
    """The tables' indexes and constraints other than their primary keys, dropped on
    entering and made again (from their own definitions, as PostgreSQL reports them) on
    leaving, even after an error: one sorted build each instead of a million updates.
    The foreign keys are checked again when they are made."""

    def __init__(self, models):
        self.tables = [model._meta.db_table for model in models]

    def __enter__(self):
        if not self.tables:
            return self
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conrelid::regclass::text = ANY(%s) AND contype IN ('f', 'u')"
                " ORDER BY contype = 'f'",  # unique ones first when made again: a key needs its index
                [self.tables],
            )
            self.constraints = cursor.fetchall()
            for table, name, _definition in reversed(self.constraints):
                cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) AND indexname NOT IN"
                " (SELECT conname FROM pg_constraint WHERE contype = 'p')",
                [self.tables],
            )
            self.indexes = cursor.fetchall()
            for name, _definition in self.indexes:
                cursor.execute(f'DROP INDEX "{name}"')
        return self

    def __exit__(self, *exc):
        if not self.tables:
            return
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '256MB'")
            for _name, definition in self.indexes:
                cursor.execute(definition)
            for table, name, definition in self.constraints:
                cursor.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
            cursor.execute("RESET maintenance_work_mem")


def new_match(match, pair, finished):
    archived = ArchivedMatch(
        # Made-up table codes, 12 URL-safe characters like live play's.
        table_code=secrets.token_urlsafe(9), player0=pair[0], player1=pair[1], scoring=match.scoring,
        target=match.target, straight=match.options.straight, oklahoma=match.options.oklahoma,
        started_at=finished - timedelta(minutes=20), finished_at=finished,
    )
    return archived, match


def store_batch(batch, streaks, cache, hands_every=1):
    with transaction.atomic():
        if connection.vendor == "postgresql":
            return copy_batch(batch, streaks, cache, hands_every)
        results = [result for archived, match in batch for result in result_rows(archived, match, streaks)]
        ArchivedMatch.objects.bulk_create([archived for archived, _match in batch])
        PlayerResult.objects.bulk_create(results, batch_size=2000)
        insert_hands(with_hands(batch, hands_every), cache)


def with_hands(batch, hands_every):
    if hands_every == 1:
        return batch
    return [(archived, match) for archived, match in batch if archived.pk % hands_every == 0]


# The hands go in with one plain executemany: hundreds of thousands of rows through
# bulk_create spend most of their time preparing the same JSON again and again. Each
# played match's columns are prepared once, and only the match id changes from copy to copy.
HAND_FIELDS = sorted((field for field in ArchivedHand._meta.concrete_fields if not field.primary_key),
                     key=lambda field: field.attname != "match_id")
HAND_COLUMNS = [field.attname for field in HAND_FIELDS]
MATCH = HAND_COLUMNS.index("match_id")


def insert_hands(batch, cache):
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        ArchivedHand._meta.db_table, ", ".join(HAND_COLUMNS), ", ".join(["%s"] * len(HAND_COLUMNS))
    )
    values = [value for archived, match in batch for value in hand_values(archived, match, cache)]
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)


def hand_values(archived, match, cache):
    """The hands' column values, prepared once per played match (`cache` lives for one load)."""
    if id(match) not in cache:
        cache[id(match)] = [[field.get_db_prep_save(getattr(hand, field.attname), connection) for field in HAND_FIELDS]
                            for hand in hand_rows(archived, match)]
    for prepared in cache[id(match)]:
        row = list(prepared)
        row[MATCH] = archived.pk
        yield row


def copy_batch(batch, streaks, cache, hands_every=1):
    """The batch's matches, results and hands with three COPYs (PostgreSQL).

    The matches' ids are taken from their sequence first, so that the results and hands
    can name them without reading them back. Each played match's rows are built once by
    `result_rows` (`shape`); a copy of it changes only its players, ids, date and streaks.
    """
    with connection.cursor() as cursor:
        sequence = "pg_get_serial_sequence(%s, 'id')"
        cursor.execute(f"SELECT nextval({sequence}) FROM generate_series(1, %s)", [ArchivedMatch._meta.db_table, len(batch)])
        for (archived, _match), (pk,) in zip(batch, cursor.fetchall()):
            archived.pk = pk
        with cursor.cursor.copy(copy_sql(ArchivedMatch, MATCH_FIELDS)) as copy:
            for archived, match in batch:
                match_values, _results = shape(archived, match, cache)
                copy.write_row([match_values.get(name, getattr(archived, name, None)) for name in MATCH_FIELDS])
        with cursor.cursor.copy(copy_sql(PlayerResult, RESULT_FIELDS)) as copy:
            for archived, match in batch:
                for row in copied_results(archived, shape(archived, match, cache)[1], streaks):
                    copy.write_row([row[name] for name in RESULT_FIELDS])
        with cursor.cursor.copy(copy_sql(ArchivedHand, HAND_COLUMNS)) as copy:
            for archived, match in with_hands(batch, hands_every):
                copy.write(b"".join(hand_lines(archived, match, cache)))


def columns_of(model):
    return [field.attname for field in model._meta.concrete_fields if not field.primary_key]


MATCH_FIELDS = ["id", *columns_of(ArchivedMatch)]
RESULT_FIELDS = columns_of(PlayerResult)
# Set by result_rows from the played match alone: the same for each copy of it.
FROM_THE_MATCH = ["status", "ending", "hand_count", "total0", "total1", "games_won0", "games_won1", "winner_seat"]


def copy_sql(model, names):
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in names)
    return f"COPY {model._meta.db_table} ({columns}) FROM STDIN"


def shape(archived, match, cache):
    """What `result_rows` makes of a played match, once: the match's own columns (its sheet
    as JSON text, as JSONField writes it) and each seat's result columns."""
    key = ("shape", id(match))
    if key not in cache:
        results = result_rows(archived, match, {})
        values = {name: getattr(archived, name) for name in FROM_THE_MATCH}
        values["sheet"] = json.dumps(archived.sheet)
        cache[key] = values, [{name: getattr(row, name) for name in RESULT_FIELDS} for row in results]
    return cache[key]


def copied_results(archived, results, streaks):
    """The played match's result columns for this copy: its players, match, date and streaks."""
    players = archived.players
    for row in results:
        seat = row["seat"]
        player, opponent = players[seat], players[1 - seat]
        yield {
            **row, "match_id": archived.pk, "player_id": player.pk, "opponent_id": opponent.pk,
            "finished_at": archived.finished_at, "against_computer": opponent.is_computer,
            "streak": streak_after(streaks, player.pk, row["won"], opponent.is_computer),
        }


def hand_lines(archived, match, cache):
    """The hands of `archived` as COPY text lines: each played match's formatted once,
    the match id put in front of each copy (HAND_COLUMNS has match_id first)."""
    key = ("copy", id(match))
    if key not in cache:
        cache[key] = [
            "\t".join(copy_text(value) for value in values[1:]).encode() + b"\n"
            for values in ([getattr(hand, name) for name in HAND_COLUMNS] for hand in hand_rows(archived, match))
        ]
    prefix = b"%d\t" % archived.pk
    return (prefix + line for line in cache[key])


def copy_text(value):
    """A value in COPY's text format: JSON for a list or dict, backslash-escaped."""
    if value is None:
        return "\\N"
    text = json.dumps(value) if isinstance(value, (list, dict)) else str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def simulate(matches, players, seed, progress=None):
    """What `manage.py simulate_matches` does: every match played by the engine."""
    rng = random.Random(seed)
    people = create_players(players, rng)
    load_matches(played_matches(matches, rng), people, matches, rng, progress=progress)
