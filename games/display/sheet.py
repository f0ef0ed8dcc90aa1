"""The score sheet as one table, the same at the table and in the archive.

`score_sheet(sheet, names)` lays out the engine's sheet (`ScoreSheet.to_dict()`: its `games`,
each with its `entries`, and its `hands`, a row per hand played) for
`templates/games/_score_sheet.html`: a Hand column, then two columns (one per seat) for each
game — for a single hand, one pair of columns with the hand's points — and a row per hand, in
order. A hand with no winner, and a win that only finished games could have taken, keep their
row with a note, so a player sees why points announced at the showdown did not count. The
hand that ended each game is marked; then points, bonus, each game's winner and the total.
"""

SEATS = (0, 1)


def score_sheet(sheet, names):
    """The sheet ready to lay out."""
    games = sheet["games"]
    ended = {(index, game["entries"][-1]["hand"]) for index, game in enumerate(games) if game["winner"] is not None}
    return {
        "names": names,
        "games": [game_column(number, game, names) for number, game in enumerate(games, start=1)],
        "rows": [row_of(hand, games, ended, names) for hand in sheet["hands"]],
        "columns": 2 * max(len(games), 1),
        "totals": [{"seat": seat, "name": names[seat], "total": sheet["totals"][seat]} for seat in SEATS],
    }


def game_column(number, game, names):
    winner = game["winner"]
    return {
        "number": number, "points": game["points"], "bonus": game["bonus"], "winner": winner,
        "winner_name": names[winner] if winner is not None else None,
    }


def row_of(hand, games, ended, names):
    """One hand's row: its points in each game it was entered in (a single hand: in the
    winner's column), or a note saying why it scored nowhere."""
    winner, number = hand["winner"], hand["hand"]
    row = {"hand": number, "winner_name": names[winner] if winner is not None else None, "points": hand["points"]}
    if winner is None:
        return dict(row, note="no_winner", cells=[])
    if games and not hand["games"]:
        return dict(row, note="entered_nowhere", cells=[])
    if not games:
        return dict(row, note=None, cells=[cell(hand["points"] if seat == winner else None) for seat in SEATS])
    cells = [
        cell(hand["points"] if index in hand["games"] and seat == winner else None,
             ended=(index, number) in ended and seat == winner)
        for index in range(len(games)) for seat in SEATS
    ]
    return dict(row, note=None, cells=cells)


def cell(points, ended=False):
    return {"points": points, "ended": ended}
