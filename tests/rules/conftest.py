import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test.signals import setting_changed

from tests.rules.pages import LANGUAGES, PAGE_NAMES


@pytest.fixture(scope="session", autouse=True)
def compiled_translations():
    """Compile the catalogues, so these tests do not depend on dev.py having run."""
    call_command("compiletranslations", stdout=io.StringIO())
    # Django caches catalogues per process; this signal is how it forgets them when
    # LOCALE_PATHS changes, so the fresh .mo files are read.
    setting_changed.send(
        sender=type(settings._wrapped), setting="LOCALE_PATHS",
        value=settings.LOCALE_PATHS, enter=False,
    )


@pytest.fixture(params=LANGUAGES)
def language(request):
    return request.param


@pytest.fixture(params=PAGE_NAMES)
def page_name(request):
    return request.param
