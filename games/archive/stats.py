"""A player's numbers: aggregates over their `PlayerResult` rows, in a few queries.

Only finished matches have result rows, so nothing unfinished is ever counted.
"""

from django.db.models import Count, Max, Q, Sum

from games.archive.models import PlayerResult

RECENT_RESULTS = 20


def player_stats(player):
    """The player page's numbers (also the JSON API's), two queries."""
    rows = PlayerResult.objects.filter(player=player)
    totals = rows.aggregate(
        matches_played=Count("id"),
        matches_won=Count("id", filter=Q(won=True)),
        hollywood_games_won=Sum("games_won", filter=Q(scoring="hollywood"), default=0),
        hands_won=Sum("hands_won", default=0),
        gins=Sum("gins", default=0),
        knocks=Sum("knocks", default=0),
        undercuts_made=Sum("undercuts_made", default=0),
        undercuts_suffered=Sum("undercuts_suffered", default=0),
        hand_points=Sum("hand_points", default=0),
        shutouts=Sum("shutouts", default=0),
        best_match_total=Max("total"),
        longest_streak=Max("streak", default=0),
    )
    newest = rows.order_by("-finished_at", "-id").values_list("streak", flat=True).first()
    played, hands_won = totals["matches_played"], totals["hands_won"]
    totals["current_streak"] = newest or 0
    totals["undercuts"] = totals["undercuts_made"]
    totals["win_rate"] = round(100 * totals["matches_won"] / played, 1) if played else None
    totals["average_points_per_hand_won"] = round(totals.pop("hand_points") / hands_won, 1) if hands_won else None
    return totals


def results_by_opponent(player):
    """Played and won against each opponent, most played first; one query."""
    rows = (
        PlayerResult.objects.filter(player=player)
        .values("opponent__public_id", "opponent__name")
        .annotate(played=Count("id"), won=Count("id", filter=Q(won=True)))
        .order_by("-played", "opponent__name")
    )
    return [
        {
            "player_id": row["opponent__public_id"],
            "name": row["opponent__name"],
            "played": row["played"],
            "won": row["won"],
            "lost": row["played"] - row["won"],
        }
        for row in rows
    ]


def recent_results(player, limit=RECENT_RESULTS):
    """The newest results, oldest first (the chart reads left to right); one query."""
    rows = (
        PlayerResult.objects.filter(player=player)
        .order_by("-finished_at", "-id")
        .values("match_id", "won", "total", "opponent_total", "finished_at", "opponent__name")[:limit]
    )
    return list(reversed(rows))
