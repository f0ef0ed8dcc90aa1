"""The score sheet as one table, the same at the table and in the archive.

`score_sheet(sheet, names)` lays out the engine's sheet (`ScoreSheet.to_dict()`: its `games`,
each with its `entries`, and its `hands`, a row per hand played) for
`templates/games/_score_sheet.html`: a Hand column, then two columns (one per seat) for each
game — for a single hand, one pair of columns with the hand's points — and a row per hand, in
order. A hand with no winner, and a win that only finished games could have taken, keep their
row with a note, so a player sees why points announced at the showdown did not count. The
hand that ended each game is marked; then points, bonus, each game's winner and the total.
"""

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext, pgettext

SEATS = (0, 1)
ENDED = ' class="sheet-game-end"'


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


def rows_html(laid_out, link_hands):
    """The sheet's rows (`score_sheet`'s), as the template's loop drew them: built in
    Python because a long match's sheet (forty hands, six columns) was a fifth of its
    archive page through the template engine. `link_hands` links each hand to its
    showdown on the page. Call inside the reader's language."""
    columns = laid_out["columns"]
    no_winner = escape(pgettext("score sheet", "No winner"))
    html = []
    for row in laid_out["rows"]:
        hand = row["hand"]
        head = f'<a href="#hand-{hand}">{hand}</a>' if link_hands else str(hand)
        if row["note"] == "no_winner":
            body = f'<td colspan="{columns}" class="sheet-note">{no_winner}</td>\n      '
        elif row["note"] == "entered_nowhere":
            # As blocktranslate: the values are escaped, the catalogue's own text is not.
            said = ngettext(
                "%(name)s won %(points)s point, entered in no game: every game it could go to was over.",
                "%(name)s won %(points)s points, entered in no game: every game it could go to was over.",
                row["points"],
            ) % {"name": escape(row["winner_name"]), "points": row["points"]}
            body = f'<td colspan="{columns}" class="sheet-note">{said}</td>\n      '
        else:
            body = "".join(
                f'<td{ENDED if cell["ended"] else ""}>'
                f'{"" if cell["points"] is None else cell["points"]}</td>'
                for cell in row["cells"]
            )
        note = ' class="sheet-note-row"' if row["note"] else ""
        html.append(f'\n    <tr{note}>\n      <th scope="row">{head}</th>\n      {body}\n    </tr>\n  ')
    return mark_safe("".join(html))
