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
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from games.live import rooms
from games.archive.models import ArchivedMatch, Player
from games.archive.record import finish_archived_match
from games.models import Seat, Table


class Ended(NamedTuple):
    unjoined_tables: int
    abandoned_matches: int
    idle_tables: int
    players: int


def end_stale_tables(now=None):
    now = now or timezone.now()
    unjoined_cutoff = now - timedelta(hours=settings.STALE_UNJOINED_TABLE_HOURS)
    idle_cutoff = now - timedelta(days=settings.STALE_MATCH_DAYS)
    unjoined = quiet_tables(unjoined_cutoff).filter(seat_count__lt=2).values_list("pk", flat=True)
    unjoined_count = deleted_rows(Table.objects.filter(pk__in=list(unjoined)), Table)
    idle = list(quiet_tables(idle_cutoff).filter(seat_count=2).values_list("code", flat=True))
    ended = [end_idle_table(code, idle_cutoff, now) for code in idle]
    return Ended(unjoined_count, sum(1 for abandoned in ended if abandoned), sum(1 for abandoned in ended
                 if abandoned is not None), delete_lone_players(unjoined_cutoff))


def deleted_rows(query, model):
    """Delete `query`; how many rows of `model` itself went (not the cascaded ones)."""
    _total, per_model = query.delete()
    return per_model.get(model._meta.label, 0)


def quiet_tables(cutoff):
    """Tables not changed since `cutoff` and with no seat's socket seen since then."""
    seen = Seat.objects.filter(table=OuterRef("pk"), last_seen__gte=cutoff)
    return Table.objects.filter(updated__lt=cutoff).exclude(Exists(seen)).annotate(seat_count=Count("seats"))


@transaction.atomic
def end_idle_table(code, cutoff, now):
    """End the table's match as abandoned if it is still being played, and delete the table:
    True if a match was abandoned, False if not, None if the table turned out to be in use
    (checked again under the lock: a move may have come meanwhile)."""
    table = Table.objects.select_for_update().get(code=code)
    if table.updated >= cutoff or Seat.objects.filter(table=table, last_seen__gte=cutoff).exists():
        return None
    playing = table.archive_id is not None and ArchivedMatch.objects.filter(
        pk=table.archive_id, status=ArchivedMatch.PLAYING,
    ).exists()
    if playing:
        finish_archived_match(table.archive_id, rooms.build(code).match, now, ending=ArchivedMatch.LEFT)
    table.delete()
    rooms.rooms.forget(code)
    return playing


def delete_lone_players(cutoff):
    """Players made before `cutoff` who sit nowhere and played no match."""
    seated = Seat.objects.filter(player=OuterRef("pk"))
    played = ArchivedMatch.objects.filter(Q(player0=OuterRef("pk")) | Q(player1=OuterRef("pk")))
    lone = Player.objects.filter(created__lt=cutoff).exclude(Exists(seated)).exclude(Exists(played))
    return deleted_rows(Player.objects.filter(pk__in=list(lone.values_list("pk", flat=True))), Player)
