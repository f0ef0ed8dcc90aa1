"""The VAPID key pair for push notices: written once to .vapid_private_key (git-ignored) for
development (dev.py serve runs this), or printed for a production environment variable."""

from django.conf import settings
from django.core.management.base import BaseCommand

from games.push.keys import new_private_key


class Command(BaseCommand):
    help = "Make the VAPID private key push notices are signed with, unless there is one."

    def add_arguments(self, parser):
        parser.add_argument("--print", action="store_true", dest="show", help="print a new key for PUSH_VAPID_PRIVATE_KEY")

    def handle(self, *args, show=False, **options):
        if show:
            self.stdout.write(new_private_key())
            return
        if settings.PUSH_VAPID_PRIVATE_KEY:
            return
        settings.VAPID_KEY_FILE.write_text(new_private_key() + "\n")
        settings.VAPID_KEY_FILE.chmod(0o600)
        self.stdout.write(f"wrote a new VAPID key to {settings.VAPID_KEY_FILE.name}")
