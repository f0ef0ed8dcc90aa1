"""A hand's end in words and pictures, the same at the table and in the archive.

Both read the engine's result in its protocol shape (`HandResult.to_dict()`: the live
state's `hand_result`, and what the archive stores), and draw it with
`templates/games/_showdown.html`. Call inside the reader's language.
"""

from django.utils.translation import gettext

SEATS = (0, 1)


def showdown(result, names):
    """Both hands as the engine arranged them, and the outcome in one sentence."""
    return {
        "kind": result["kind"],
        "sentence": outcome_sentence(result, names),
        "players": [side(result, seat, names) for seat in SEATS],
    }


def side(result, seat, names):
    """One hand at the showdown. Each meld carries the cards the other player laid off on
    it (they are shown where they went, on the knocker's meld); `layoffs` counts this
    player's own laid-off cards for a note in their row."""
    shown = result["players"][seat]
    other = result["players"][1 - seat]
    return {
        "seat": seat,
        "name": names[seat],
        "knocker": result["knocker"] == seat and result["kind"] != "draw",
        "gin": result["knocker"] == seat and result["kind"] == "gin",
        "melds": [{"cards": meld, "laid_off": [layoff["card"] for layoff in other["layoffs"] if layoff["meld"] == index]}
                  for index, meld in enumerate(shown["melds"])],
        "layoffs": [layoff["card"] for layoff in shown["layoffs"]],
        "deadwood": shown["deadwood"],
        "deadwood_points": shown["deadwood_points"],
    }


def outcome_sentence(result, names):
    kind = result["kind"]
    if kind == "draw":
        return gettext("No winner: only two cards were left in the stock. The same dealer deals again.")
    knocker = result["knocker"]
    defender = 1 - knocker
    knocker_points = result["players"][knocker]["deadwood_points"]
    defender_points = result["players"][defender]["deadwood_points"]
    values = {"knocker": names[knocker], "defender": names[defender], "points": result["points"],
              "knocker_deadwood": knocker_points, "defender_deadwood": defender_points,
              "difference": knocker_points - defender_points}
    if kind == "gin":
        return gettext("%(knocker)s went gin: gin bonus 25 + %(defender)s’s deadwood %(defender_deadwood)s = %(points)s") % values
    if kind == "undercut":
        return gettext("%(defender)s undercut %(knocker)s: undercut bonus 25 + the difference in deadwood %(difference)s = %(points)s") % values
    return gettext("%(knocker)s knocked and beat %(defender)s: deadwood %(defender_deadwood)s − %(knocker_deadwood)s = %(points)s") % values
