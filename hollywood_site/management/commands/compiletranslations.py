import os
import tempfile
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile every locale/*/LC_MESSAGES/*.po to .mo with polib (no GNU gettext needed)."

    def handle(self, *args, **options):
        for locale_path in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_path).glob("*/LC_MESSAGES/*.po")):
                write_atomically(po_path.with_suffix(".mo"), polib.pofile(str(po_path)).to_binary())
                self.stdout.write(f"compiled {po_path.relative_to(settings.BASE_DIR)}")


def write_atomically(path, data):
    """Write `path` whole or not at all: a server reading the catalogue meanwhile (another test
    run's, beside this one) sees the old file or the new one, never a half-written one, which
    gettext cannot parse (a 500 on every page it renders)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)  # mkstemp's is 0600: a server running as another user must read it
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
