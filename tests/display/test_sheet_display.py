"""The score sheet: one function and one partial, for the table and the archive alike."""

from django.template.loader import render_to_string

from games.engine import HOLLYWOOD, ONE_GAME, SINGLE_HAND
from games.display.sheet import score_sheet


def sheet_of(mode, wins, target=100):
    """The engine's sheet of these (winner, points) hands, as the protocol sends it."""
    sheet = mode.new_sheet(target)
    for winner, points in wins:
        sheet.record(winner=winner, points=points)
    return sheet.to_dict()


def test_it_lays_out_a_row_per_hand_and_marks_where_each_game_ended():
    # Ana 60 (game 1), no winner, Ben 30 (game 1), Ana 50 (games 1, 2: ends game 1).
    sheet = score_sheet(sheet_of(HOLLYWOOD, [(0, 60), (None, 0), (1, 30), (0, 50)]), ["Ana", "Ben"])
    assert [(row["hand"], row["note"]) for row in sheet["rows"]] == [(1, None), (2, "no_winner"), (3, None), (4, None)]
    assert [[cell["points"] for cell in row["cells"]] for row in sheet["rows"] if not row["note"]] == [
        [60, None, None, None, None, None],
        [None, 30, None, None, None, None],
        [50, None, 50, None, None, None],
    ]
    assert [cell["ended"] for cell in sheet["rows"][-1]["cells"]] == [True, False, False, False, False, False]
    assert [game["winner_name"] for game in sheet["games"]] == ["Ana", None, None]
    assert sheet["columns"] == 6 and [total["total"] for total in sheet["totals"]] == [110 + 150 + 50, 30 + 25]


def test_it_keeps_a_row_for_a_win_entered_in_no_game():
    # Ana's three wins end game 1; Ben's first win could only go to game 1.
    sheet = score_sheet(sheet_of(HOLLYWOOD, [(0, 40), (0, 40), (0, 40), (1, 40)]), ["Ana", "Ben"])
    assert sheet["rows"][3] | {"cells": None} == {
        "hand": 4, "winner_name": "Ben", "points": 40, "note": "entered_nowhere", "cells": None,
    }
    html = render_to_string("games/_score_sheet.html", {"score_sheet": sheet})
    assert "Ben won 40 points, entered in no game" in html


def test_it_gives_a_single_hand_one_row_with_its_points_under_the_winner():
    sheet = score_sheet(sheet_of(SINGLE_HAND, [(1, 27)]), ["Ana", "Ben"])
    assert [[cell["points"] for cell in row["cells"]] for row in sheet["rows"]] == [[None, 27]]
    html = render_to_string("games/_score_sheet.html", {"score_sheet": sheet})
    assert "Ben 27" in html and "Bonus" not in html and html.count('class="sheet-name"') == 2


def test_it_draws_one_table_with_two_columns_a_game():
    sheet = score_sheet(sheet_of(HOLLYWOOD, [(0, 100)]), ["Ana", "Ben"])
    html = render_to_string("games/_score_sheet.html", {"score_sheet": sheet})
    assert html.count("<table") == 1
    assert html.count('class="sheet-name"') == 6
    assert html.count('class="sheet-game-end"') == 2  # the cell, and the legend
    assert "Game 3" in html and "Game won by" in html and "Ana 325" in html


def test_it_draws_one_game_and_an_empty_sheet():
    html = render_to_string("games/_score_sheet.html", {"score_sheet": score_sheet(sheet_of(ONE_GAME, []), ["Ana", ""])})
    assert html.count('class="sheet-name"') == 2 and "Game 1" not in html
    assert "No entries yet" in html and "—" in html
