"""Fill the archive with matches played by the engine, for development and demos."""

from django.core.management.base import BaseCommand

from games.archive.bulk import simulate


class Command(BaseCommand):
    help = "Fill the archive with matches played by the engine between made-up players."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument("--players", type=int, default=20)
        parser.add_argument("--seed", type=int, default=None, help="the same seed plays the same matches")

    def handle(self, *args, matches, players, seed, **options):
        if players < 2:
            self.stderr.write("--players must be at least 2")
            return
        simulate(matches, players, seed, progress=lambda done: self.stdout.write(f"{done}/{matches} matches"))
        self.stdout.write(self.style.SUCCESS(f"{matches} matches among {players} players stored."))
