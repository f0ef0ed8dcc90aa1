"""The score sheet (docs/rules.md, "A match": one game and Hollywood)."""

import pytest

from games.engine import HOLLYWOOD, ONE_GAME


def sheet_after(*wins, games=3, target=100):
    sheet = {1: ONE_GAME, 3: HOLLYWOOD}[games].new_sheet(target)
    for winner, points in wins:
        sheet.record(winner=winner, points=points)
    return sheet


def points(sheet):
    return [game.points for game in sheet.games]


def test_it_enters_a_first_win_in_game_one():
    assert points(sheet_after((0, 20))) == [(20, 0), (0, 0), (0, 0)]


def test_it_enters_a_second_win_in_games_one_and_two():
    assert points(sheet_after((0, 20), (0, 30))) == [(50, 0), (30, 0), (0, 0)]


def test_it_enters_a_third_and_later_win_in_all_three():
    assert points(sheet_after((0, 20), (0, 30), (0, 10), (0, 5))) == [(65, 0), (45, 0), (15, 0)]


def test_it_counts_each_players_wins_separately():
    sheet = sheet_after((0, 20), (0, 30), (1, 15))
    assert points(sheet) == [(50, 15), (30, 0), (0, 0)]
    assert [game.hands_won for game in sheet.games] == [(2, 1), (1, 0), (0, 0)]


def test_it_ends_a_game_when_points_reach_the_target_exactly():
    sheet = sheet_after((1, 40), (1, 60))
    assert sheet.games[0].winner == 1 and sheet.games[1].winner is None


def test_it_enters_the_whole_hand_past_the_target():
    assert sheet_after((0, 90), (0, 35)).games[0].points == (125, 0)


def test_it_gives_no_bonus_until_a_game_ends():
    assert sheet_after((0, 90)).games[0].bonus == (0, 0)


def test_it_gives_the_game_winner_100_and_both_25_a_hand_entered():
    sheet = sheet_after((0, 60), (1, 30), (0, 50))
    assert sheet.games[0].bonus == (100 + 2 * 25, 25)


def test_it_gives_a_shutout_200():
    sheet = sheet_after((0, 60), (0, 50))
    assert sheet.games[0].winner == 0 and sheet.games[0].bonus == (200 + 2 * 25, 0)


def test_it_does_not_count_bonuses_toward_the_target():
    sheet = sheet_after((0, 100), (1, 10))
    assert sheet.games[1].winner is None and sheet.games[1].points == (0, 0)


def test_it_takes_no_more_points_into_a_finished_game():
    sheet = sheet_after((0, 100), (1, 10), (1, 10))
    assert sheet.games[0].points == (100, 0) and sheet.games[1].points == (0, 10)


def test_it_enters_a_win_nowhere_when_only_finished_games_would_take_it_but_still_counts_it():
    sheet = HOLLYWOOD.new_sheet(100)
    sheet.record(winner=0, points=100)
    assert sheet.record(winner=1, points=30) == []  # game 1 is over: entered nowhere
    assert sheet.wins == [1, 1]
    assert sheet.record(winner=1, points=40) == [1]  # yet it was a win: the next goes to game 2
    assert sheet.games[1].points == (0, 40)


def test_it_lets_one_hand_finish_two_games():
    sheet = sheet_after((0, 60), (0, 20), (0, 90))  # games 1 and 2 reach 100 on the third win
    assert points(sheet) == [(170, 0), (110, 0), (90, 0)]
    assert [game.winner for game in sheet.games] == [0, 0, None]


def test_it_goes_on_after_a_player_already_has_two_games():
    sheet = sheet_after((0, 60), (0, 20), (0, 90))
    assert not sheet.is_over and sheet.winner is None
    sheet.record(winner=1, points=50)  # player 1's first win: games 1 and 2 are over
    assert sheet.games[2].points == (90, 0)
    sheet.record(winner=0, points=10)
    assert sheet.is_over and sheet.winner == 0


def test_it_ends_the_match_when_all_three_games_are_finished_and_two_games_win():
    sheet = sheet_after((1, 100), (0, 100), (0, 100), (0, 100))
    assert [game.winner for game in sheet.games] == [1, 0, 0]
    assert sheet.is_over and sheet.winner == 0


def test_it_shows_totals_that_do_not_decide_the_winner():
    sheet = sheet_after((1, 900), (0, 100), (0, 100), (0, 100))
    assert [game.winner for game in sheet.games] == [1, 0, 0]
    assert sheet.totals[1] > sheet.totals[0] and sheet.winner == 0


def test_it_adds_points_and_bonuses_of_every_game_into_the_totals():
    sheet = sheet_after((0, 100), (1, 20))
    assert sheet.totals == (100 + 200 + 25, 0)


@pytest.mark.parametrize("points", [0, -5])
def test_it_rejects_points_below_one(points):
    with pytest.raises(ValueError):
        HOLLYWOOD.new_sheet(100).record(winner=0, points=points)


def test_it_rejects_a_win_on_a_finished_sheet():
    sheet = sheet_after((0, 100), games=1)
    with pytest.raises(ValueError):
        sheet.record(winner=1, points=10)


def test_it_plays_one_game_to_the_target_with_the_same_bonuses():
    sheet = sheet_after((0, 30), (1, 20), (0, 30), (0, 250), games=1, target=250)
    assert sheet.is_over and sheet.winner == 0
    assert sheet.games[0].points == (310, 20) and sheet.games[0].bonus == (100 + 75, 25)
