"""A player's numbers, against a count done by hand on three fixed matches (conftest)."""

import pytest

from games.archive.models import ArchivedMatch, OpponentRecord, PlayerTotals
from games.archive.record import finish_archived_match
from games.archive.stats import player_stats, rebuild_all_totals, results_by_opponent
from tests.archive.helpers import START, hand, make_player, record, scripted_match, start_match


def test_it_counts_anas_matches_as_counted_by_hand(ana, fixed_matches):
    stats = player_stats(ana)
    assert stats["matches_played"] == 3
    assert stats["matches_won"] == 2
    assert stats["win_rate"] == 66.7
    assert stats["hands_won"] == 6
    assert stats["gins"] == 2
    assert stats["knocks"] == 3
    assert stats["undercuts"] == stats["undercuts_made"] == 1
    assert stats["undercuts_suffered"] == 1
    # 40 + 30 + 35 + 100 + 110 + 100 over six hands.
    assert stats["average_points_per_hand_won"] == 69.2
    assert stats["hollywood_games_won"] == 3
    # Each Hollywood game won with Cyd still on 0.
    assert stats["shutouts"] == 3


def test_it_takes_the_best_total_from_the_sheet_with_its_bonuses(ana, fixed_matches):
    # Games of 100, 110 and 100 points, each a shutout (200) with one hand entered (25).
    assert player_stats(ana)["best_match_total"] == 310 + 3 * 225


def test_it_counts_the_one_game_bonuses_in_the_total(fixed_matches):
    _single, one_game, _hollywood = fixed_matches
    # Ana: 105 points + 100 for the game + 3 hands × 25; Ben: 20 + 1 hand × 25.
    assert (one_game.total0, one_game.total1) == (280, 45)


def test_it_counts_bens_side_of_the_same_matches(ben, fixed_matches):
    stats = player_stats(ben)
    assert (stats["matches_played"], stats["matches_won"], stats["hands_won"]) == (2, 1, 2)
    assert (stats["gins"], stats["knocks"], stats["undercuts_made"], stats["undercuts_suffered"]) == (1, 1, 0, 1)
    assert stats["hollywood_games_won"] == 0
    assert stats["best_match_total"] == 45


def test_it_follows_winning_streaks_in_the_order_matches_ended(ana, ben, fixed_matches):
    # Ana lost the single hand, then won the game and the Hollywood match.
    assert (player_stats(ana)["current_streak"], player_stats(ana)["longest_streak"]) == (2, 2)
    assert (player_stats(ben)["current_streak"], player_stats(ben)["longest_streak"]) == (0, 1)


def test_it_gives_the_results_against_each_opponent(ana, fixed_matches):
    rows = {row["name"]: (row["played"], row["won"], row["lost"]) for row in results_by_opponent(ana)}
    assert rows == {"Ben": (2, 1, 1), "Cyd": (1, 1, 0)}


def test_it_keeps_the_stats_when_a_player_is_renamed(ana, fixed_matches):
    before = player_stats(ana)
    ana.name = "Ana María"
    ana.save()
    assert player_stats(ana) == before


def test_it_keeps_two_players_of_one_name_apart(ana, fixed_matches):
    other_ana = make_player("Ana")
    assert player_stats(other_ana)["matches_played"] == 0


def test_it_does_not_count_a_match_nobody_came_back_to(ana, ben, fixed_matches):
    before = player_stats(ana)
    left = start_match("left", (ana, ben), "hollywood")
    abandoned = finish_archived_match(left.pk, scripted_match("hollywood", [hand(0, "gin", 30)]), START,
                                      ending=ArchivedMatch.LEFT)
    assert abandoned.status == ArchivedMatch.ABANDONED and abandoned.winner is None
    assert player_stats(ana) == before


def test_it_counts_a_resigned_match_as_won_by_the_other(ana, ben):
    started = start_match("resigned", (ana, ben), "hollywood")
    match = scripted_match("hollywood", [hand(0, "gin", 30)])
    resigned = finish_archived_match(started.pk, match, START, ending=ArchivedMatch.RESIGNED, loser=0)
    assert (resigned.status, resigned.ending, resigned.winner) == (ArchivedMatch.FINISHED, "resigned", ben)
    assert (player_stats(ana)["matches_won"], player_stats(ben)["matches_won"]) == (0, 1)
    assert player_stats(ana)["hands_won"] == 1


def test_it_records_a_finished_match_only_once(ana, fixed_matches):
    again = record("single", (ana, ana), "hand", [hand(1, "gin", 99)])
    assert again.pk == fixed_matches[0].pk
    assert player_stats(ana)["matches_played"] == 3


def test_it_gives_empty_numbers_to_a_new_player(cyd):
    stats = player_stats(cyd)
    assert stats["matches_played"] == 0
    assert stats["win_rate"] is None and stats["average_points_per_hand_won"] is None


def test_it_refuses_to_record_a_match_that_is_not_over(ana, ben):
    with pytest.raises(ValueError):
        record("early", (ana, ben), "game", [hand(0, "knock", 30)])
    assert ArchivedMatch.objects.count() == 0


def test_it_rebuilds_the_same_totals_as_recording_keeps(ana, ben, cyd, fixed_matches):
    def snapshot():
        totals = sorted(PlayerTotals.objects.values_list(), key=str)
        records = sorted(OpponentRecord.objects.values_list("player", "opponent", "played", "won"))
        return totals, records

    kept = snapshot()
    rebuild_all_totals()
    assert snapshot() == kept


@pytest.mark.parametrize(("language", "shown"), [("en", "66.7%"), ("de", "66,7 %"), ("tr", "%66,7")])
def test_it_writes_the_win_rate_as_each_language_does(client, ana, fixed_matches, language, shown):
    page = client.get(f"/{language}/players/{ana.public_id}/").content.decode()
    assert f"<dd>{shown}</dd>" in page
