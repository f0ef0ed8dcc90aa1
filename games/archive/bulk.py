"""Filling the archive in bulk, for `simulate_matches` and the benchmark.

Rows are built by the same `record.build_rows` as a live match's, so they are what
live play would have stored; only the writes are batched.
"""

import random
import secrets
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from games.archive.engine_bridge import match_summary
from games.archive.models import ArchivedHand, ArchivedMatch, Player, PlayerResult, hash_token, new_token
from games.archive.record import hand_row, result_rows
from games.archive.simulate import play_match
from games.archive.stats import rebuild_all_totals

NAMES = ["Ana", "Ben", "Cyd", "Dana", "Emre", "Fatma", "Gustav", "Hana", "Iker", "Jana", "Kemal", "Lucía"]
SCORING_MIX = ["hollywood"] * 5 + ["game"] * 3 + ["hand"] * 2


def create_players(count, rng, batch_size=1000):
    """`count` players with made-up names; their secrets are random and thrown away."""
    players = [
        Player(name=f"{rng.choice(NAMES)} {n}", token_hash=hash_token(new_token())) for n in range(count)
    ]
    return Player.objects.bulk_create(players, batch_size=batch_size)


def played_matches(count, rng):
    """`count` matches played out by the engine: (scoring, target, straight, oklahoma, hands, sheet).

    """
    games = []
    for _ in range(count):
        scoring, target = rng.choice(SCORING_MIX), rng.choice((100, 100, 250))
        straight, oklahoma = rng.random() < 0.1, rng.random() < 0.1
        match = play_match(scoring, target, straight, oklahoma, rng=rng)
        hands, sheet = match_summary(match)
        games.append((scoring, target, straight, oklahoma, hands, sheet))
    return games


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


def load_matches(games, players, count, rng, batch_size=500, weights=None, end=None, progress=None):
    """Store `count` finished matches, each one of `games` between two of `players`.

    Dates run from about a year ago to `end`, in order, so streaks come out right.
    """
    end = end or timezone.now()
    start = end - timedelta(days=365)
    step = (end - start) / max(count, 1)
    streaks, cache = {}, {}
    for first in range(0, count, batch_size):
        batch = []
        for index in range(first, min(first + batch_size, count)):
            finished = start + step * index
            batch.append(new_match(rng.choice(games), pick_pair(players, rng, weights), finished))
        store_batch(batch, streaks, cache)
        if progress:
            progress(min(first + batch_size, count))
    rebuild_all_totals()


def new_match(game, pair, finished):
    scoring, target, straight, oklahoma, hands, sheet = game
    archived = ArchivedMatch(
        # Made-up table codes, 12 URL-safe characters like live play's.
        table_code=secrets.token_urlsafe(9), player0=pair[0], player1=pair[1], scoring=scoring, target=target,
        straight=straight, oklahoma=oklahoma, started_at=finished - timedelta(minutes=20), finished_at=finished,
    )
    return archived, hands, sheet


def store_batch(batch, streaks, cache):
    with transaction.atomic():
        results = [row for archived, hands, sheet in batch for row in result_rows(archived, hands, sheet, streaks)]
        ArchivedMatch.objects.bulk_create([archived for archived, _hands, _sheet in batch])
        PlayerResult.objects.bulk_create(results, batch_size=2000)
        insert_hands(batch, cache)


# The hands go in with one plain executemany: hundreds of thousands of rows through
# bulk_create spend most of their time preparing the same JSON again and again. Each
# played match's columns are prepared once, and only the ids change from copy to copy.
HAND_FIELDS = [field for field in ArchivedHand._meta.concrete_fields if not field.primary_key]
HAND_COLUMNS = [field.attname for field in HAND_FIELDS]
MATCH, WINNER, LOSER = (HAND_COLUMNS.index(name) for name in ("match_id", "winner_player_id", "loser_player_id"))


def insert_hands(batch, cache):
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        ArchivedHand._meta.db_table, ", ".join(HAND_COLUMNS), ", ".join(["%s"] * len(HAND_COLUMNS))
    )
    rows = [row for archived, hands, _sheet in batch for row in hand_values(archived, hands, cache)]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def hand_values(archived, hands, cache):
    players = (archived.player0_id, archived.player1_id)
    for number, values in enumerate(prepared(archived, hands, cache)):
        row = list(values)
        winner = hands[number]["winner"]
        row[MATCH] = archived.pk
        row[WINNER] = players[winner] if winner is not None else None
        row[LOSER] = players[1 - winner] if winner is not None else None
        yield row


def prepared(archived, hands, cache):
    """The hands' column values, computed once per played match (`cache` lives for one load)."""
    key = id(hands)
    if key not in cache:
        rows = [hand_row(archived, number, hand) for number, hand in enumerate(hands, start=1)]
        cache[key] = [
            [field.get_db_prep_save(getattr(row, field.attname), connection) for field in HAND_FIELDS] for row in rows
        ]
    return cache[key]


def simulate(matches, players, seed, progress=None):
    """What `manage.py simulate_matches` does: every match played by the engine."""
    rng = random.Random(seed)
    people = create_players(players, rng)
    load_matches(played_matches(matches, rng), people, matches, rng, progress=progress)
