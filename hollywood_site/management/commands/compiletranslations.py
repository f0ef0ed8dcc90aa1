from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile every locale/*/LC_MESSAGES/*.po to .mo with polib (no GNU gettext needed)."

    def handle(self, *args, **options):
        for locale_path in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_path).glob("*/LC_MESSAGES/*.po")):
                polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
                self.stdout.write(f"compiled {po_path.relative_to(settings.BASE_DIR)}")
