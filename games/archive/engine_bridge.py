"""Everything the archive knows about the engine's objects and save format.

Turns a finished `Match` into the plain hand records `record.build_rows` stores,
and replays a stored hand to show one seat's view at one step.
"""

from games.engine import Hand, Options, ScoreSheet
from games.matches import sheet_shape, sheet_state


def match_summary(match):
    """(hands, final sheet) of an engine Match, each hand with the sheet after it.

    The sheets, in the protocol's shape (`games.matches.sheet_shape`), are rebuilt by
    entering the results on a fresh ScoreSheet: the engine, not the archive, knows where
    a win is entered.
    """
    sheet = None if match.sheet is None else ScoreSheet(games=len(match.sheet.games), target=match.target)
    hands, entered = [], []
    for hand, result in zip(match.hands, match.results):
        won = sheet is not None and result["winner"] is not None
        entered.append(sheet.record(winner=result["winner"], points=result["points"]) if won else [])
        hands.append(hand_record(hand.to_dict(), result, sheet_shape(sheet, match.results, entered)))
    return hands, sheet_state(match)


def hand_record(saved, result, sheet):
    players = result["players"]
    return {
        "dealer": saved["dealer"],
        "winner": result["winner"],
        "kind": result["kind"],
        "points": result["points"],
        "knocker": result["knocker"],
        "knock_card": result["knock_card"],
        "melds": [player["melds"] for player in players],
        "layoffs": [player["layoffs"] for player in players],
        "deadwood": [player["deadwood"] for player in players],
        "deadwood_points": [player["deadwood_points"] for player in players],
        "deck": saved["deck"],
        "moves": saved["moves"],
        "reshuffles": saved.get("reshuffles", []),
        "sheet": sheet,
    }


def options_for(scoring, straight, oklahoma):
    # As the engine's Match does: a single hand reshuffles, the others use the two-card rule.
    stock_end = "reshuffle" if scoring == "hand" else "two_cards"
    return Options(straight=straight, oklahoma=oklahoma, stock_end=stock_end)


def replayed_hand(archived, hand, step):
    """The stored hand re-dealt from its deck and played up to `step` moves."""
    saved = {"dealer": hand.dealer, "deck": hand.deck, "moves": hand.moves[:step], "reshuffles": hand.reshuffles}
    return Hand.from_dict(options_for(archived.scoring, archived.straight, archived.oklahoma), saved)
