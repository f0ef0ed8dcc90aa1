"""A match played by the engine and recorded is stored hand by hand, as it was played."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.archive.models import ArchivedMatch, PlayerResult
from games.archive.record import finish_archived_match, start_archived_match
from games.archive.replay import replayed_hand
from games.archive.simulate import play_match
from tests.archive.helpers import record_engine_match, start_match


@pytest.fixture
def played():
    return play_match("hollywood", 100, rng=random.Random(7))


def test_it_stores_every_hand_as_the_engine_played_it(ana, ben, played):
    archived = record_engine_match((ana, ben), played)
    hands = list(archived.hands.all())
    assert len(hands) == len(played.results) == archived.hand_count
    for stored, engine_hand, result in zip(hands, played.hands, played.results):
        assert (stored.dealer, stored.winner, stored.kind, stored.points) == (
            engine_hand.dealer, result.winner, result.kind, result.points,
        )
        assert stored.result == result.to_dict()
        assert stored.moves == [move for _seat, move in engine_hand.history]


def test_it_gives_the_sheet_as_it_stood_after_each_hand_from_the_final_one(ana, ben, played):
    archived = record_engine_match((ana, ben), played)
    archived = ArchivedMatch.objects.get(pk=archived.pk)  # the sheet as read back
    after = archived.sheets_after_each_hand()
    assert after == [played.sheet_after(number).to_dict() for number in range(1, len(played.results) + 1)]
    assert [[row["hand"] for row in sheet["hands"]] for sheet in after] == [
        list(range(1, number + 1)) for number in range(1, archived.hand_count + 1)
    ]
    assert archived.sheet == played.sheet.to_dict()
    assert after[-1] == archived.sheet


def test_a_hand_stores_no_sheet_of_its_own(ana, ben, played):
    archived = record_engine_match((ana, ben), played)
    assert "sheet" not in {field.name for field in archived.hands.first()._meta.concrete_fields}


def test_a_match_being_played_has_no_sheets_after_hands(ana, ben):
    assert start_match("playing", (ana, ben), "hollywood").sheets_after_each_hand() == []


def test_it_stores_the_result_and_both_sides(ana, ben, played):
    archived = record_engine_match((ana, ben), played)
    assert archived.status == ArchivedMatch.FINISHED
    assert archived.winner_seat == played.winner
    assert archived.winner == (ana, ben)[played.winner]
    assert [archived.total0, archived.total1] == list(played.sheet.totals)
    sides = PlayerResult.objects.filter(match=archived).order_by("seat")
    assert [side.won for side in sides] == [played.winner == 0, played.winner == 1]
    assert sum(side.hands_won for side in sides) == sum(1 for r in played.results if r.winner is not None)


def test_it_completes_the_row_started_when_the_match_was_dealt(ana, ben, played):
    started = start_match("engine", (ana, ben), "hollywood")
    assert started.status == ArchivedMatch.PLAYING
    assert PlayerResult.objects.count() == 0
    archived = record_engine_match((ana, ben), played)
    assert archived.pk == started.pk
    assert archived.status == ArchivedMatch.FINISHED


def test_it_ignores_a_second_recording_of_the_same_match(ana, ben, played):
    first = record_engine_match((ana, ben), played)
    second = record_engine_match((ana, ben), played)
    assert first.pk == second.pk
    assert PlayerResult.objects.count() == 2


def test_it_keeps_a_rematch_at_the_same_table_apart(ana, ben, played):
    first = record_engine_match((ana, ben), played)
    second = start_archived_match(
        table_code="engine", match_number=2, players=(ben, ana), scoring="hollywood", target=100,
        straight=False, oklahoma=False, started_at=first.started_at,
    )
    rematch = finish_archived_match(second.pk, play_match("hollywood", 100, rng=random.Random(8)), first.finished_at)
    assert rematch.pk != first.pk and rematch.status == ArchivedMatch.FINISHED


@pytest.mark.parametrize("scoring", ["hand", "game"])
def test_it_records_the_other_scoring_modes(ana, ben, scoring):
    match = play_match(scoring, 100, rng=random.Random(3))
    archived = record_engine_match((ana, ben), match)
    assert archived.winner_seat == match.winner
    assert archived.hand_count == len(match.results)


def test_it_replays_a_stored_hand_to_the_same_end(ana, ben, played):
    archived = record_engine_match((ana, ben), played)
    stored = archived.hands.first()
    replayed = replayed_hand(archived, stored, len(stored.moves))
    assert replayed.result == played.results[0]


def test_it_replays_a_single_hand_through_its_reshuffles(ana, ben):
    # Straight Gin (gin only) and seeds until a hand ran through its stock, so the replay needs the new stock.
    for seed in range(200):
        match = play_match("hand", 100, straight=True, rng=random.Random(seed))
        if match.hands[0].to_dict()["reshuffles"]:
            break
    else:
        pytest.fail("no single hand with a reshuffle in 200 seeds")
    archived = record_engine_match((ana, ben), match)
    stored = archived.hands.first()
    assert replayed_hand(archived, stored, len(stored.moves)).result == match.results[0]


def test_it_locks_both_players_before_reading_their_results(ana, ben, played):
    # Two matches of one player ending at once must not both compute the streak and
    # totals from the same old rows: the players' rows are locked first, in id order.
    with CaptureQueriesContext(connection) as queries:
        record_engine_match((ben, ana), played)
    sql = [query["sql"] for query in queries.captured_queries]
    reads_results = next(n for n, text in enumerate(sql) if 'FROM "archive_playerresult"' in text)
    locks = [n for n, text in enumerate(sql) if 'FROM "archive_player" ' in text
             and 'ORDER BY "archive_player"."id" ASC' in text and f"{ana.pk}" in text and f"{ben.pk}" in text]
    assert locks and locks[0] < reads_results
    if connection.features.has_select_for_update:
        assert sql[locks[0]].rstrip().endswith("FOR UPDATE")
