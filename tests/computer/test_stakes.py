"""The expert weighs a hand's end by what it does to the match, read from the sheet."""

from games.computer.stakes import Stakes
from games.engine import HOLLYWOOD, ONE_GAME, Match, Options


def view_with(sheet, scoring):
    match = Match(Options(), scoring=scoring, target=sheet.target if sheet else 100)
    return {**match.view(0), "sheet": sheet.to_dict() if sheet else None}


def test_a_win_that_reaches_the_target_is_worth_the_whole_game():
    sheet = ONE_GAME.new_sheet(100)
    sheet.record(winner=0, points=90)
    stakes = Stakes(view_with(sheet, "game"), seat=0)
    assert stakes.value(winner=0, points=10) == 1.0
    assert stakes.value(winner=0, points=5) < 1.0


def test_near_the_target_a_small_win_is_worth_more_than_when_far_from_it():
    near, far = ONE_GAME.new_sheet(100), ONE_GAME.new_sheet(100)
    near.record(winner=0, points=85)
    gain = {name: Stakes(view_with(sheet, "game"), 0) for name, sheet in (("near", near), ("far", far))}
    assert gain["near"].value(0, 15) - gain["near"].now > gain["far"].value(0, 15) - gain["far"].now


def test_a_hollywood_win_that_can_only_go_to_finished_games_is_worth_nothing():
    sheet = HOLLYWOOD.new_sheet(100)
    sheet.record(winner=0, points=100)  # seat 0's first win finishes game 1
    # Seat 1's first win could only go to game 1; seat 0's second goes to game 2.
    stakes = Stakes(view_with(sheet, "hollywood"), seat=1)
    assert stakes.value(winner=1, points=40) == stakes.now
    assert stakes.value(winner=0, points=40) < stakes.now


def test_a_single_hand_is_worth_winning_whatever_the_points():
    stakes = Stakes(view_with(None, "hand"), seat=0)
    assert stakes.value(winner=0, points=1) > 0.9 > 0.1 > stakes.value(winner=1, points=1)
