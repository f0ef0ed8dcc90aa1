"""Filling the archive in bulk, for `simulate_matches` and the benchmark.

Rows are built by the same `record.build_rows` as a live match's, so they are what
live play would have stored; only the writes are batched.
"""

import random
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.archive.engine_bridge import match_summary
from games.archive.models import ArchivedHand, ArchivedMatch, Player, PlayerResult, hash_token, new_token
from games.archive.record import build_rows
from games.archive.simulate import play_match

NAMES = ["Ana", "Ben", "Cyd", "Dana", "Emre", "Fatma", "Gustav", "Hana", "Iker", "Jana", "Kemal", "Lucía"]
SCORING_MIX = ["hollywood"] * 5 + ["game"] * 3 + ["hand"] * 2


def create_players(count, rng, batch_size=1000):
    """`count` players with made-up names; their secrets are random and thrown away."""
    players = [
        Player(name=f"{rng.choice(NAMES)} {n}", token_hash=hash_token(new_token())) for n in range(count)
    ]
    return Player.objects.bulk_create(players, batch_size=batch_size)


def played_matches(count, rng):
    """`count` matches played out by the engine: (scoring, target, options, hands, sheet)."""
    games = []
    for _ in range(count):
        scoring, target = rng.choice(SCORING_MIX), rng.choice((100, 100, 250))
        straight, oklahoma = rng.random() < 0.1, rng.random() < 0.1
        match = play_match(scoring, target, straight, oklahoma, rng=rng)
        hands, sheet = match_summary(match)
        games.append((scoring, target, straight, oklahoma, hands, sheet))
    return games


def pick_pair(players, rng, skew):
    # Skewed toward the first players, so some are busy (thousands of matches).
    first = players[min(int(rng.paretovariate(skew)) - 1, len(players) - 1)] if skew else rng.choice(players)
    second = rng.choice(players)
    while second.pk == first.pk:
        second = rng.choice(players)
    return (first, second) if rng.random() < 0.5 else (second, first)


def load_matches(games, players, count, rng, batch_size=500, skew=None, end=None, progress=None):
    """Store `count` finished matches, each one of `games` between two of `players`.

    Dates run from about a year ago to `end`, in order, so streaks come out right.
    """
    end = end or timezone.now()
    start = end - timedelta(days=365)
    step = (end - start) / max(count, 1)
    streaks = {}
    for first in range(0, count, batch_size):
        batch = []
        for index in range(first, min(first + batch_size, count)):
            finished = start + step * index
            batch.append(new_match(rng.choice(games), pick_pair(players, rng, skew), finished))
        store_batch(batch, streaks)
        if progress:
            progress(min(first + batch_size, count))


def new_match(game, pair, finished):
    scoring, target, straight, oklahoma, hands, sheet = game
    archived = ArchivedMatch(
        # Made-up table codes, 12 URL-safe characters like live play's.
        table_code=secrets.token_urlsafe(9), player0=pair[0], player1=pair[1], scoring=scoring, target=target,
        straight=straight, oklahoma=oklahoma, started_at=finished - timedelta(minutes=20), finished_at=finished,
    )
    return archived, hands, sheet


def store_batch(batch, streaks):
    with transaction.atomic():
        rows = [(archived, *build_rows(archived, hands, sheet, streaks)) for archived, hands, sheet in batch]
        ArchivedMatch.objects.bulk_create([archived for archived, _h, _r in rows])
        # The match ids exist only now: point the children at the saved rows.
        hand_rows = [row for archived, hands, _r in rows for row in relink(hands, archived)]
        results = [row for archived, _h, results in rows for row in relink(results, archived)]
        ArchivedHand.objects.bulk_create(hand_rows, batch_size=2000)
        PlayerResult.objects.bulk_create(results, batch_size=2000)


def relink(rows, archived):
    for row in rows:
        row.match = archived
    return rows


def simulate(matches, players, seed, progress=None):
    """What `manage.py simulate_matches` does: every match played by the engine."""
    rng = random.Random(seed)
    people = create_players(players, rng)
    load_matches(played_matches(matches, rng), people, matches, rng, progress=progress)
