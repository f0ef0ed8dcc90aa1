"""Every catalogue is complete, and the translations really come back at run time."""

import re

import polib
import pytest
from django.conf import settings
from django.utils import translation

from tests.rules.pages import TRANSLATED_LANGUAGES

# %(name)s, %s, %d … and {name}, {0}, {}; "%%" is a literal percent sign.
PLACEHOLDER = re.compile(r"%\([^)]+\)[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|%[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|\{[^{}]*\}")

# One string each language's source text gives verbatim: the page's own title.
KNOWN_TRANSLATIONS = {
    "es": "Puntuación Hollywood",
    "de": "Hollywood-Wertung",
    "cs": "Bodování Hollywood",
    "tr": "Hollywood puanlaması",
}


def catalogue(language):
    path = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"no catalogue for {language}: run makemessages"
    return polib.pofile(str(path))


def placeholders(text):
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def pairs(entry):
    """(source, translation) for every form of an entry."""
    if not entry.msgid_plural:
        return [(entry.msgid, entry.msgstr)]
    return [
        (entry.msgid if index == 0 else entry.msgid_plural, text)
        for index, text in sorted(entry.msgstr_plural.items())
    ]


def described(entry):
    return f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid[:60]}"


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_has_no_untranslated_entries(language):
    untranslated = [described(entry) for entry in catalogue(language).untranslated_entries()]
    assert untranslated == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_has_no_fuzzy_entries(language):
    po = catalogue(language)
    fuzzy = [described(entry) for entry in po.fuzzy_entries()]
    assert not po.metadata_is_fuzzy
    assert fuzzy == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_keeps_every_placeholder_of_the_msgid(language):
    broken = [
        described(entry)
        for entry in catalogue(language)
        if not entry.obsolete
        for source, text in pairs(entry)
        if text and placeholders(text) != placeholders(source)
    ]
    assert broken == []


def test_it_finds_placeholders_of_every_kind():
    assert placeholders("%(rank)s of %(suit)s, %d, %s, {name} and {0}, 100%%") == sorted(
        ["%(rank)s", "%(suit)s", "%d", "%s", "{name}", "{0}"]
    )


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_translates_a_known_string_at_run_time(language):
    with translation.override(language):
        assert translation.gettext("Hollywood scoring") == KNOWN_TRANSLATIONS[language]
