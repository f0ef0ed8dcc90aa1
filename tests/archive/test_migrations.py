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


def test_a_review_stored_before_it_kept_its_players_and_mistakes_has_them_after_migrating(transactional_db):
    from datetime import datetime, timezone

    from games.archive.models import MatchReview
    from tests.archive.helpers import decision

    archived = record_engine_match((make_player("Ana"), make_player("Ben")), play_match("game", 100, rng=random.Random(7)))
    try:
        apps = migrate(("archive", "0007_a_match_may_end_out_of_time"))
        now = datetime(2026, 12, 1, tzinfo=timezone.utc)
        old = apps.get_model("archive", "MatchReview").objects.create(
            match_id=archived.pk, status="ready", hand_count=2, seats=[], requested_at=now, beat_at=now)
        hands = apps.get_model("archive", "ReviewedHand").objects
        hands.create(review=old, number=1, decisions=[decision(3, 1, "pile", "stock", 9.8, "blunder"), decision(4, 1, "stock", "stock")])
        hands.create(review=old, number=2, decisions=[decision(2, 0, "discard 7H", "discard 8H", 3.0, "inaccuracy")])
    finally:
        migrate()
    review = MatchReview.objects.get(pk=old.pk)
    assert (review.player0, review.player1) == archived.players
    assert [(m["hand"], m["step"], m["tag"]) for m in review.mistakes] == [(1, 3, "blunder"), (2, 2, "inaccuracy")]
