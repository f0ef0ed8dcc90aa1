"""A player's numbers: a fold over their PlayerResult rows, done by the database.

Only finished matches have result rows, so nothing unfinished is ever counted. The
fold (`TOTALS`) is kept materialised in PlayerTotals and OpponentRecord, refreshed
for both players whenever a match is recorded, so a busy player's page reads a row
instead of aggregating thousands.
"""

from functools import lru_cache

from django.db import connection
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from games.archive.models import ArchivedMatch, OpponentRecord, PlayerResult, PlayerTotals
from games.engine import HOLLYWOOD

RECENT_RESULTS = 20
OPPONENTS_SHOWN = 30

TOTALS = {
    "matches_played": Count("id"),
    "matches_won": Count("id", filter=Q(won=True)),
    "hollywood_games_won": Sum("games_won", filter=Q(scoring=HOLLYWOOD.name), default=0),
    "hands_won": Sum("hands_won", default=0),
    "gins": Sum("gins", default=0),
    "knocks": Sum("knocks", default=0),
    "undercuts_made": Sum("undercuts_made", default=0),
    "undercuts_suffered": Sum("undercuts_suffered", default=0),
    "hand_points": Sum("hand_points", default=0),
    "shutouts": Sum("shutouts", default=0),
    "best_match_total": Max("total"),
    "longest_streak": Max("streak", default=0),
}
AGAINST = {"played": Count("id"), "won": Count("id", filter=Q(won=True))}


def against_people(rows):
    """A player's numbers count matches against people: the computer's are kept apart."""
    return rows.filter(against_computer=False)


def newest_streak(player_ref):
    """The streak on a player's newest result: their current winning streak."""
    return against_people(PlayerResult.objects.filter(player=player_ref)).order_by("-finished_at", "-id").values("streak")[:1]


def refresh_totals(players):
    """Recompute both players' totals and their record against each other from their rows.

    Written with INSERT … ON CONFLICT UPDATE: two matches of one player ending at once
    cannot fail on a missing or duplicate row.
    """
    totals = []
    for player in set(players):
        values = against_people(PlayerResult.objects.filter(player=player)).aggregate(**TOTALS)
        values["current_streak"] = newest_streak(player).values_list("streak", flat=True).first() or 0
        totals.append(PlayerTotals(player=player, **values))
    upsert(PlayerTotals, totals, ["player"])
    first, second = players
    pairs = (
        PlayerResult.objects.filter(Q(player=first, opponent=second) | Q(player=second, opponent=first))
        .values("player", "opponent")
        .annotate(**AGAINST)
    )
    upsert(OpponentRecord, [opponent_record(row) for row in pairs], ["player", "opponent"])


def upsert(model, rows, keys):
    fields = [field.name for field in model._meta.concrete_fields if not field.primary_key and field.name not in keys]
    model.objects.bulk_create(rows, update_conflicts=True, unique_fields=keys, update_fields=fields)


def opponent_record(row):
    return OpponentRecord(player_id=row["player"], opponent_id=row["opponent"], played=row["played"], won=row["won"])


def rebuild_all_totals():
    """Every player's totals and opponent records from scratch: for bulk loads, and repairs.

    Each table is filled by one INSERT … SELECT of the same fold: at a million matches,
    building a million OpponentRecord objects in Python took longer than the fill.
    """
    PlayerTotals.objects.all().delete()
    totals = against_people(PlayerResult.objects).values("player").annotate(**TOTALS, current_streak=Value(0))
    insert_select(PlayerTotals, ["player", *TOTALS, "current_streak"], totals)
    # Apart from the fold: a subquery in a grouped query runs once a row, not once a player.
    PlayerTotals.objects.update(current_streak=Coalesce(Subquery(newest_streak(OuterRef("player"))), 0))
    OpponentRecord.objects.all().delete()
    pairs = PlayerResult.objects.values("player", "opponent").annotate(**AGAINST)
    insert_select(OpponentRecord, ["player", "opponent", *AGAINST], pairs)


def insert_select(model, names, rows):
    """INSERT INTO `model` (`names`) the query `rows`, whose columns come in that order
    (values() first, then the annotations in the order given)."""
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in names)
    sql, params = rows.order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {model._meta.db_table} ({columns}) {sql}", params)


def player_stats(player):
    """The player page's numbers (also the JSON API's); one query."""
    totals = PlayerTotals.objects.filter(player_id=player.pk).first() or PlayerTotals(player_id=player.pk)
    stats = {name: getattr(totals, name) for name in [*TOTALS, "current_streak"]}
    played, hands_won = stats["matches_played"], stats["hands_won"]
    stats["undercuts"] = stats["undercuts_made"]
    stats["win_rate"] = round(100 * stats["matches_won"] / played, 1) if played else None
    stats["average_points_per_hand_won"] = round(stats.pop("hand_points") / hands_won, 1) if hands_won else None
    return stats


def results_by_opponent(player, limit=OPPONENTS_SHOWN):
    """Played and won against the most played opponents, most played first; one query."""
    rows = OpponentRecord.objects.filter(player=player).select_related("opponent").order_by("-played", "opponent_id")
    return [
        {
            "player_id": row.opponent.public_id,
            "name": row.opponent.name,
            "computer_level": row.opponent.computer_level,
            "played": row.played,
            "won": row.won,
            "lost": row.played - row.won,
        }
        for row in rows[:limit]
    ]


def recent_results(player, limit=RECENT_RESULTS):
    """The newest results, oldest first (the chart reads left to right); one query."""
    rows = (
        PlayerResult.objects.filter(player=player)
        .order_by("-finished_at", "-id")
        .values("match__public_id", "won", "total", "opponent_total", "finished_at", "opponent__name")[:limit]
    )
    return list(reversed(rows))


@lru_cache(maxsize=4096)
def wins_before(table_code, match_number):
    """Matches won by each seat at a table before its match `match_number` (a rematch is
    played at the same table, by the same two seats). Those matches are over, so the
    answer never changes: cached, it costs one query per rematch, not per move."""
    won = ArchivedMatch.objects.filter(
        table_code=table_code, match_number__lt=match_number, status=ArchivedMatch.FINISHED,
    ).values("winner_seat").annotate(count=Count("id"))
    counts = {row["winner_seat"]: row["count"] for row in won}
    return counts.get(0, 0), counts.get(1, 0)
