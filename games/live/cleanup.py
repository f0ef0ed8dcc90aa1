"""Ending what nobody came back to; run by `manage.py end_stale_tables` from a scheduler.

- A table whose second seat was never taken, untouched for STALE_UNJOINED_TABLE_HOURS, is
  deleted with its seat.
- A table with nobody at it and no move for STALE_MATCH_DAYS: a match still being played
  ends in the archive as left with no loser (ABANDONED: kept, counted for no one) through
  `record.finish_archived_match`, the one place a match ends; then the table, its seats
  and its moves are deleted. A finished match stays in the archive as it was.
- A player left with no seat and no match (a program's, a table never joined) goes too.

"Untouched" means no change to the table (a move, a join, a press) and no seat's socket
seen since the cutoff: a player with the page open keeps the table.
"""

from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from games.errors import GameError
from games.live.batch import send_now
from games.live.commands import EndIfStale
from games.live.tables import forget_dead_processes
from games.archive.models import ArchivedMatch, Player
from games.models import Presence, Seat, Table


class Ended(NamedTuple):
    unjoined_tables: int
    abandoned_matches: int
    idle_tables: int
    players: int


def end_stale_tables(now=None):
    now = now or timezone.now()
    unjoined_cutoff = now - timedelta(hours=settings.STALE_UNJOINED_TABLE_HOURS)
    idle_cutoff = now - timedelta(days=settings.STALE_MATCH_DAYS)
    unjoined = list(quiet_tables(unjoined_cutoff).filter(seat_count__lt=2).values_list("code", flat=True))
    unjoined_ended = [end_idle_table(code, unjoined_cutoff, now) for code in unjoined]
    idle = list(quiet_tables(idle_cutoff).filter(seat_count=2).values_list("code", flat=True))
    ended = [end_idle_table(code, idle_cutoff, now) for code in idle]
    forget_dead_processes(unjoined_cutoff)
    return Ended(sum(1 for gone in unjoined_ended if gone is not None), sum(1 for abandoned in ended if abandoned),
                 sum(1 for abandoned in ended if abandoned is not None), delete_lone_players(unjoined_cutoff))


def deleted_rows(query, model):
    """Delete `query`; how many rows of `model` itself went (not the cascaded ones)."""
    _total, per_model = query.delete()
    return per_model.get(model._meta.label, 0)


def quiet_tables(cutoff):
    """Tables not changed since `cutoff` and with no seat's socket seen since then."""
    seen = Seat.objects.filter(table=OuterRef("pk"), last_seen__gte=cutoff)
    open_since = Presence.objects.filter(seat__table=OuterRef("pk"), connections__gt=0, beat__gte=cutoff)
    return Table.objects.filter(updated__lt=cutoff).exclude(Exists(seen)).exclude(Exists(open_since)).annotate(
        seat_count=Count("seats"))


def end_idle_table(code, cutoff, now):
    """The table's owner ends it (EndIfStale): True if a match was abandoned,
    False if not, None if the table turned out to be in use or gone already."""
    try:
        return send_now(code, EndIfStale(cutoff, now)).answer
    except GameError:  # deleted meanwhile (another run of the cleanup)
        return None


def delete_lone_players(cutoff):
    """Players made before `cutoff` who sit nowhere and played no match."""
    seated = Seat.objects.filter(player=OuterRef("pk"))
    played = ArchivedMatch.objects.filter(Q(player0=OuterRef("pk")) | Q(player1=OuterRef("pk")))
    lone = Player.objects.filter(created__lt=cutoff).exclude(Exists(seated)).exclude(Exists(played))
    return deleted_rows(Player.objects.filter(pk__in=list(lone.values_list("pk", flat=True))), Player)
