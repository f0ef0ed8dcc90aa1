"""Shapes the stored records into what the CSV and the player's chart show.

Plain data in, plain data out. The sheet and the showdown are drawn as the table draws them
(games.display.sheet, games.display.showdown).
"""

SEATS = (0, 1)


# Text a spreadsheet would run as a formula when the cell begins with it (a player named
# "=1+1" or "@SUM(…)"); such a cell gets a leading apostrophe, the usual defence.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def csv_rows(archived, hands):
    """The sheet hand by hand as CSV rows: a header, one row per hand, bonus and total.

    A machine format for spreadsheets and programs: its column names and kinds are fixed
    English words whatever the page's language (docs/protocol.md), never translated.
    """
    return [[csv_cell(value) for value in row] for row in sheet_rows(archived, hands)]


def sheet_rows(archived, hands):
    sheet = archived.sheet
    games = len(sheet["games"])
    names = [archived.player0.name, archived.player1.name]
    header = ["hand", "dealer", "winner", "kind", "points"]
    header += [f"game {number} {name}" for number in range(1, games + 1) for name in names]
    header += [f"total {name}" for name in names]
    rows = [header]
    for hand, row in zip(hands, sheet["hands"]):
        winner = names[hand.winner] if hand.winner is not None else ""
        line = [hand.number, names[hand.dealer], winner, hand.kind, hand.points]
        line += [row["points"] if index in row["games"] and seat == row["winner"] else ""
                 for index in range(games) for seat in SEATS]
        line += ["", ""]
        rows.append(line)
    rows.append(["bonus", "", "", "", ""] + [b for game in sheet["games"] for b in game["bonus"]] + ["", ""])
    rows.append(["total", "", "", "", ""] + [p for game in sheet["games"] for p in game["points"]] + list(archived.totals))
    return rows


CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_GAP = 2
# Room for this many bars whatever the count: one match is one slim bar, not a wall.
CHART_SLOTS = 20


def chart_bars(results, width=CHART_WIDTH, height=CHART_HEIGHT):
    """SVG bars for recent results: up for a win, down for a loss, sized by the margin."""
    if not results:
        return []
    middle = height / 2
    largest = max(abs(row["total"] - row["opponent_total"]) for row in results) or 1
    step = width / max(len(results), CHART_SLOTS)
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
