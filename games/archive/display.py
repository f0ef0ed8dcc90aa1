"""Shapes the stored records into what the pages, the CSV and the chart show.

Plain data in, plain data out: the templates only lay it out and translate it.
"""

SEATS = (0, 1)


def empty_sheet(game_count):
    return {"games": [{"points": [0, 0], "winner": None} for _ in range(game_count)]}


def sheet_rows(hands, game_count):
    """The sheet hand by hand, as written at the table.

    Each row is one hand with, for each game, the points each seat had entered in
    it by that hand (None where nothing was entered) and whether the game ended on
    that hand. Entries are the difference between the sheets stored after each hand.
    """
    rows = []
    before = empty_sheet(game_count)
    for hand in hands:
        after = hand.sheet or before
        cells = [game_cell(old, new) for old, new in zip(before["games"], after["games"])]
        rows.append({"hand": hand, "cells": cells})
        before = after
    return rows


def game_cell(before, after):
    entries = [after["points"][seat] - before["points"][seat] for seat in SEATS]
    return {
        "entries": [entry or None for entry in entries],
        "ended": before["winner"] is None and after["winner"] is not None,
        "winner": after["winner"],
    }


def showdown_sides(hand, players):
    """Both sides of a hand's showdown, ready to lay out (the template needs no indexing)."""
    return [
        {
            "player": players[seat],
            "knocked": hand.knocker == seat,
            "melds": hand.melds[seat] if hand.melds else [],
            "layoffs": hand.layoffs[seat] if hand.layoffs else [],
            "deadwood": hand.deadwood[seat] if hand.deadwood else [],
            "points": hand.deadwood_points[seat] if hand.deadwood_points else 0,
        }
        for seat in SEATS
    ]


def outcome(hand, players):
    """The numbers of the sentence that says how a hand ended, as the table says it.

    None when the record has no showdown to tell (a hand-made record).
    """
    if hand.kind == "draw":
        return {"kind": "draw"}
    if hand.knocker is None or not hand.deadwood_points:
        return None
    knocker, defender = hand.knocker, 1 - hand.knocker
    return {
        "kind": hand.kind,
        "knocker": players[knocker].name,
        "defender": players[defender].name,
        "points": hand.points,
        "knocker_deadwood": hand.deadwood_points[knocker],
        "defender_deadwood": hand.deadwood_points[defender],
        "difference": hand.deadwood_points[knocker] - hand.deadwood_points[defender],
    }


def game_count(scoring):
    return {"hollywood": 3, "game": 1}.get(scoring, 0)


def csv_rows(archived, hands):
    """The sheet hand by hand as CSV rows: a header, one row per hand, bonus and total."""
    games = game_count(archived.scoring)
    names = [archived.player0.name, archived.player1.name]
    header = ["hand", "dealer", "winner", "kind", "points"]
    header += [f"game {number} {name}" for number in range(1, games + 1) for name in names]
    header += [f"total {name}" for name in names]
    rows = [header]
    for row in sheet_rows(hands, games):
        hand = row["hand"]
        winner = names[hand.winner] if hand.winner is not None else ""
        line = [hand.number, names[hand.dealer], winner, hand.kind, hand.points]
        line += [entry or "" for cell in row["cells"] for entry in cell["entries"]]
        line += ["", ""]
        rows.append(line)
    sheet = archived.sheet or {"games": []}
    rows.append(["bonus", "", "", "", ""] + [b for game in sheet["games"] for b in game["bonus"]] + ["", ""])
    rows.append(["total", "", "", "", ""] + [p for game in sheet["games"] for p in game["points"]] + list(archived.totals))
    return rows


CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_GAP = 2


def chart_bars(results, width=CHART_WIDTH, height=CHART_HEIGHT):
    """SVG bars for recent results: up for a win, down for a loss, sized by the margin."""
    if not results:
        return []
    middle = height / 2
    largest = max(abs(row["total"] - row["opponent_total"]) for row in results) or 1
    step = width / len(results)
    bars = []
    for index, row in enumerate(results):
        margin = row["total"] - row["opponent_total"]
        # A won match always shows at least a sliver above the line, a lost one below.
        size = max(abs(margin) / largest * (middle - 4), 3)
        bars.append(
            {
                "x": round(index * step + CHART_GAP / 2, 1),
                "y": round(middle - size if row["won"] else middle, 1),
                "width": round(step - CHART_GAP, 1),
                "height": round(size, 1),
                "row": row,
            }
        )
    return bars
