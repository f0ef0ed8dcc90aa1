"""End the tables and matches nobody came back to (games.live.cleanup); for a scheduler."""

from django.core.management.base import BaseCommand

from games.live.cleanup import end_stale_tables


class Command(BaseCommand):
    help = (
        "Delete tables nobody joined for STALE_UNJOINED_TABLE_HOURS, end matches nobody touched for "
        "STALE_MATCH_DAYS as abandoned in the archive and delete their tables, and delete players "
        "left with no seat and no match."
    )

    def handle(self, *args, **options):
        ended = end_stale_tables()
        self.stdout.write(
            f"{ended.unjoined_tables} unjoined tables deleted, {ended.idle_tables} idle tables deleted "
            f"({ended.abandoned_matches} matches abandoned), {ended.players} players deleted."
        )
