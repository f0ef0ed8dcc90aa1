"""Migration 0004 drops each hand's stored sheet; going back stores it again, made from the
match's own sheet exactly as live play stored it."""

import random

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.archive.simulate import play_match
from tests.archive.helpers import make_player, record_engine_match

BEFORE = ("archive", "0003_moves_played_by_the_clock")


def migrate(*targets):
    """Migrate to `targets` (none: every app's latest); the apps as they stand there."""
    executor = MigrationExecutor(connection)
    targets = list(targets) or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def test_going_back_before_the_sheets_were_dropped_stores_each_hands_sheet_as_the_engine_made_it(transactional_db):
    played = play_match("hollywood", 100, rng=random.Random(7))
    archived = record_engine_match((make_player("Ana"), make_player("Ben")), played)
    try:
        apps = migrate(BEFORE)
        stored = apps.get_model("archive", "ArchivedHand").objects.filter(match_id=archived.pk).order_by("number")
        assert [hand.sheet for hand in stored] == [
            played.sheet_after(number).to_dict() for number in range(1, len(played.results) + 1)
        ]
    finally:
        migrate()
    assert archived.sheets_after_each_hand() == [
        played.sheet_after(number).to_dict() for number in range(1, len(played.results) + 1)
    ]
