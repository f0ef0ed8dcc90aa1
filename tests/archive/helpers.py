"""Hand-made matches for the archive's tests: results in, stored records out."""

from datetime import datetime, timedelta, timezone

from games.archive.models import Player, hash_token, new_token
from games.archive.record import finish_match_record, record_finished_match
from games.engine import ScoreSheet
from games.matches import sheet_shape

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
GAMES = {"hollywood": 3, "game": 1}


def make_player(name):
    return Player.objects.create(name=name, token_hash=hash_token(new_token()))


def hand(winner, kind, points, dealer=0):
    """One hand's record; the showdown is left empty, the stats do not read it."""
    return {"dealer": dealer, "winner": winner, "kind": kind, "points": points if winner is not None else 0}


def with_sheets(scoring, target, hands):
    """The hands each with the sheet after it, and the final sheet, entered by the engine."""
    if scoring not in GAMES:
        return hands, None
    sheet = ScoreSheet(games=GAMES[scoring], target=target)
    entered = []
    for entry in hands:
        won = entry["winner"] is not None
        entered.append(sheet.record(winner=entry["winner"], points=entry["points"]) if won else [])
        entry["sheet"] = sheet_shape(sheet, hands, entered)
    return hands, sheet_shape(sheet, hands, entered)


def record(code, players, scoring, hands, target=100, day=0):
    hands, sheet = with_sheets(scoring, target, hands)
    return finish_match_record(
        table_code=code,
        match_number=1,
        players=players,
        scoring=scoring,
        target=target,
        straight=False,
        oklahoma=False,
        started_at=START + timedelta(days=day),
        finished_at=START + timedelta(days=day, hours=1),
        hands=hands,
        sheet=sheet,
    )


def record_engine_match(players, match, code="engine", scoring="hollywood"):
    """A match played by the engine, recorded as live play records it."""
    return record_finished_match(
        table_code=code, players=players, scoring=scoring, target=match.target,
        options=match.options, started_at=START, match=match,
    )
