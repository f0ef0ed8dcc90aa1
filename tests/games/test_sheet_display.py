"""The score sheet: one function and one partial, for the table and the archive alike."""

from django.template.loader import render_to_string

from games.engine import ScoreSheet
from games.sheet_display import score_sheet


def protocol_sheet(games, wins, target=100):
    """A sheet in the protocol's shape, each game with its entries, entered by the engine."""
    sheet = ScoreSheet(games=games, target=target)
    entries = [[] for _ in range(games)]
    for number, (winner, points) in enumerate(wins, start=1):
        if winner is None:
            continue
        for index in sheet.record(winner=winner, points=points):
            entries[index].append({"hand": number, "seat": winner, "points": points})
    data = sheet.to_dict()
    for game, game_entries in zip(data["games"], entries):
        game["entries"] = game_entries
    return data


def test_it_lays_out_a_row_per_hand_entered_and_marks_where_each_game_ended():
    # Ana 60 (game 1), a draw, Ben 30 (game 1), Ana 50 (games 1, 2: ends game 1).
    sheet = score_sheet(protocol_sheet(3, [(0, 60), (None, 0), (1, 30), (0, 50)]), ["Ana", "Ben"])
    assert [row["hand"] for row in sheet["rows"]] == [1, 3, 4]
    assert [[cell["points"] for cell in row["cells"]] for row in sheet["rows"]] == [
        [60, None, None, None, None, None],
        [None, 30, None, None, None, None],
        [50, None, 50, None, None, None],
    ]
    assert [cell["ended"] for cell in sheet["rows"][-1]["cells"]] == [True, False, False, False, False, False]
    assert [game["winner_name"] for game in sheet["games"]] == ["Ana", None, None]
    assert sheet["columns"] == 6 and [total["total"] for total in sheet["totals"]] == [110 + 150 + 50, 30 + 25]


def test_it_has_no_sheet_for_a_single_hand():
    assert score_sheet(None, ["Ana", "Ben"]) is None


def test_it_draws_one_table_with_two_columns_a_game():
    sheet = score_sheet(protocol_sheet(3, [(0, 100)]), ["Ana", "Ben"])
    html = render_to_string("games/_score_sheet.html", {"score_sheet": sheet})
    assert html.count("<table") == 1
    assert html.count('class="sheet-name"') == 6
    assert html.count('class="sheet-game-end"') == 2  # the cell, and the legend
    assert "Game 3" in html and "Game won by" in html and "Ana 325" in html


def test_it_draws_one_game_and_an_empty_sheet():
    html = render_to_string("games/_score_sheet.html", {"score_sheet": score_sheet(protocol_sheet(1, []), ["Ana", ""])})
    assert html.count('class="sheet-name"') == 2 and "Game 1" not in html
    assert "No entries yet" in html and "—" in html
