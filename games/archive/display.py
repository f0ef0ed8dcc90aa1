"""Shapes the stored records into what the pages, the CSV and the chart show.

Plain data in, plain data out: the templates only lay it out and translate it.
"""

SEATS = (0, 1)


def sheet_with_entries(sheet, hands):
    """The final sheet in the protocol's shape, each game with its entries hand by hand
    as the table's state carries them (`hand`, `seat`, `points`), for
    games.sheet_display.score_sheet. None for a single hand.

    An entry is the difference between the sheets stored after a hand and before it.
    """
    if sheet is None:
        return None
    games = [dict(game, entries=[]) for game in sheet["games"]]
    before = [[0, 0] for _ in games]
    for hand in hands:
        after = [game["points"] for game in hand.sheet["games"]] if hand.sheet else before
        for game, old, new in zip(games, before, after):
            for seat in SEATS:
                if new[seat] != old[seat]:
                    game["entries"].append({"hand": hand.number, "seat": seat, "points": new[seat] - old[seat]})
        before = after
    return {**sheet, "games": games}


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
    games = game_count(archived.scoring)
    names = [archived.player0.name, archived.player1.name]
    header = ["hand", "dealer", "winner", "kind", "points"]
    header += [f"game {number} {name}" for number in range(1, games + 1) for name in names]
    header += [f"total {name}" for name in names]
    rows = [header]
    sheet = sheet_with_entries(archived.sheet, hands) or {"games": []}
    entered = {
        (entry["hand"], index, entry["seat"]): entry["points"]
        for index, game in enumerate(sheet["games"])
        for entry in game["entries"]
    }
    for hand in hands:
        winner = names[hand.winner] if hand.winner is not None else ""
        line = [hand.number, names[hand.dealer], winner, hand.kind, hand.points]
        line += [entered.get((hand.number, index, seat), "") for index in range(games) for seat in SEATS]
        line += ["", ""]
        rows.append(line)
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
