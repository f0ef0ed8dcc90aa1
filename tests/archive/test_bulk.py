"""The bulk filler (COPY on PostgreSQL, INSERTs elsewhere) stores what live play stores,
and rebuilding every total from scratch gives what recording match by match kept."""

import random

from django.db.models import Count, Max, Q, Sum

from games.archive.bulk import load_matches, played_matches
from games.archive.models import ArchivedHand, ArchivedMatch, OpponentRecord, PlayerResult, PlayerTotals
from games.archive.players import computer_player
from games.archive.record import hand_rows, result_rows
from games.archive.stats import rebuild_all_totals
from tests.archive.helpers import hand, make_player, record, record_engine_match, start_match

HAND_FIELDS = ["number", "dealer", "result", "deck", "moves", "reshuffles", "by_clock"]
RESULT_FIELDS = [
    "seat", "player_id", "opponent_id", "scoring", "against_computer", "won", "total", "opponent_total", "games_won",
    "hands_won", "gins", "knocks", "undercuts_made", "undercuts_suffered", "hand_points", "shutouts",
]


def snapshot():
    totals = sorted(PlayerTotals.objects.values_list(), key=str)
    records = sorted(OpponentRecord.objects.values_list("player", "opponent", "played", "won"))
    return totals, records


def test_it_stores_each_bulk_match_as_live_play_would(db):
    rng = random.Random(4)
    players = [make_player("Ana"), make_player("Ben"), computer_player("club")]
    game = played_matches(1, rng)[0]
    load_matches([game], players, 6, rng, batch_size=4)
    assert ArchivedMatch.objects.filter(status="finished").count() == 6
    for archived in ArchivedMatch.objects.select_related("player0", "player1"):
        assert archived.sheet == game.sheet.to_dict()
        assert archived.hand_count == len(game.results) == archived.hands.count()
        built = {row.number: row for row in hand_rows(archived, game)}
        for stored in archived.hands.all():
            assert [getattr(stored, name) for name in HAND_FIELDS] == [getattr(built[stored.number], name) for name in HAND_FIELDS]
        expected = result_rows(archived, game, {archived.player0_id: 0, archived.player1_id: 0})
        stored = archived.results.order_by("seat")
        assert [[getattr(row, name) for name in RESULT_FIELDS] for row in stored] == \
            [[getattr(row, name) for name in RESULT_FIELDS] for row in expected]
        assert {row.finished_at for row in stored} == {archived.finished_at}


def test_it_folds_the_bulk_totals_from_the_results_against_people_only(db):
    rng = random.Random(5)
    players = [make_player(f"P{n}") for n in range(4)] + [computer_player("expert")]
    load_matches(played_matches(3, rng), players, 40, rng, batch_size=7)
    people = PlayerResult.objects.filter(against_computer=False)
    for totals in PlayerTotals.objects.all():
        rows = people.filter(player=totals.player_id)
        fold = rows.aggregate(played=Count("id"), won=Count("id", filter=Q(won=True)), gins=Sum("gins"),
                              hand_points=Sum("hand_points"), best=Max("total"), longest=Max("streak"))
        assert (totals.matches_played, totals.matches_won, totals.gins, totals.hand_points) == \
            (fold["played"], fold["won"], fold["gins"], fold["hand_points"])
        assert (totals.best_match_total, totals.longest_streak) == (fold["best"], fold["longest"])
        assert totals.current_streak == rows.order_by("-finished_at", "-id").first().streak
    # The computer's matches are in no person's totals, and a player who met only the computer has none.
    assert PlayerTotals.objects.count() == people.values("player").distinct().count()
    assert sum(PlayerTotals.objects.values_list("matches_played", flat=True)) == people.count()


def test_it_rebuilds_the_totals_recording_kept_with_the_computer_and_an_abandoned_match(db):
    ana, ben, bea = make_player("Ana"), make_player("Ben"), computer_player("beginner")
    record("one", (ana, ben), "game", [hand(0, "gin", 120)], day=0)
    record("two", (ana, bea), "game", [hand(1, "knock", 110)], day=1)
    record("three", (ben, ana), "hand", [hand(0, "undercut", 40)], day=2)
    record("four", (ana, ben), "hand", [hand(0, "knock", 20)], day=3)
    abandoned = start_match("five", (ana, ben), "hand")
    record_engine_match((ana, ben), played_matches(1, random.Random(2))[0], code="six", ending="left")
    assert ArchivedMatch.objects.get(pk=abandoned.pk).status == "playing"
    kept = snapshot()
    rebuild_all_totals()
    assert snapshot() == kept
    assert PlayerTotals.objects.get(player=ana).current_streak == 1


def test_it_keeps_the_hands_of_one_match_in_n_when_asked(db):
    rng = random.Random(6)
    players = [make_player("Ana"), make_player("Ben")]
    game = played_matches(1, rng)[0]
    load_matches([game], players, 10, rng, batch_size=3, hands_every=5)
    with_hands = set(ArchivedHand.objects.values_list("match", flat=True))
    assert with_hands == {pk for pk in ArchivedMatch.objects.values_list("pk", flat=True) if pk % 5 == 0}
    assert PlayerResult.objects.count() == 20


def indexes_and_constraints():
    """Every index and constraint of the archive's tables, by name, as the database defines them."""
    from django.db import connection

    tables = [model._meta.db_table for model in (ArchivedMatch, PlayerResult, ArchivedHand)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", [tables])
        indexes = sorted(cursor.fetchall())
        cursor.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid::regclass::text = ANY(%s)",
                       [tables])
        return indexes, sorted(cursor.fetchall())


def test_a_fill_with_the_indexes_set_aside_leaves_the_same_indexes_and_constraints_and_the_same_archive(db):
    from django.db import connection

    players = [make_player("Ana"), make_player("Ben"), make_player("Cyd")]
    games = played_matches(2, random.Random(7))
    before = indexes_and_constraints() if connection.vendor == "postgresql" else None
    load_matches(games, players, 9, random.Random(8), batch_size=4, indexes_after=True)
    aside = snapshot(), ArchivedHand.objects.count(), PlayerResult.objects.count()
    if before is not None:
        assert indexes_and_constraints() == before
    ArchivedMatch.objects.all().delete()
    load_matches(games, players, 9, random.Random(8), batch_size=4)
    totals, records = snapshot()
    # The same fold whichever way the rows went in (the players' ids are the same; the matches' are new).
    assert (totals, records) == aside[0] and (ArchivedHand.objects.count(), PlayerResult.objects.count()) == aside[1:]
