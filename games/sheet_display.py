"""The score sheet as one table, the same at the table and in the archive.

`score_sheet(sheet, names)` takes a sheet in the protocol's shape (`games`, each with
`points`, `hands_won`, `winner`, `bonus` and its `entries` hand by hand: `hand`, `seat`,
`points`; and `totals`) and the two names, and lays it out for
`templates/games/_score_sheet.html`: a Hand column, then two columns (one per seat) for
each game, a row per hand whose win was entered somewhere (a draw, or a win that only
finished games could have taken, has no entry and no row), the hand that ended each game
marked, then points, bonus, the game's winner and the sheet total.
"""

SEATS = (0, 1)


def score_sheet(sheet, names):
    """The sheet ready to lay out, or None when there is no sheet (a single hand)."""
    if sheet is None:
        return None
    games = sheet["games"]
    by_hand = {}
    for index, game in enumerate(games):
        for entry in game.get("entries", []):
            by_hand.setdefault(entry["hand"], {})[(index, entry["seat"])] = entry["points"]
    # A finished game takes no more points: its last entry is the hand that ended it.
    ended = {index: game["entries"][-1]["hand"] for index, game in enumerate(games)
             if game["winner"] is not None and game.get("entries")}
    rows = [
        {
            "hand": number,
            "cells": [
                {"points": entries.get((index, seat)), "ended": ended.get(index) == number and (index, seat) in entries}
                for index in range(len(games)) for seat in SEATS
            ],
        }
        for number, entries in sorted(by_hand.items())
    ]
    return {
        "names": names,
        "games": [
            {
                "number": index,
                "points": game["points"],
                "bonus": game["bonus"],
                "winner": game["winner"],
                "winner_name": names[game["winner"]] if game["winner"] is not None else None,
            }
            for index, game in enumerate(games, start=1)
        ],
        "rows": rows,
        "columns": 2 * len(games),
        "totals": [{"seat": seat, "name": names[seat], "total": sheet["totals"][seat]} for seat in SEATS],
    }
