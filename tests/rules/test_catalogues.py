"""Every catalogue is complete, and the translations really come back at run time."""

import io
import re
import shutil
import subprocess
import sys

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
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


# What a copy of the project needs for makemessages to see every translatable string.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.mo", "db.sqlite3*", "staticfiles", "docs")


def catalogue_path(language):
    return settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"


def catalogue(language):
    path = catalogue_path(language)
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
def test_it_writes_every_catalogue_as_gnu_gettext_reads_it(language):
    # polib forgives what msgfmt, msgmerge, makemessages and compilemessages refuse (a
    # "#| msgid_plural" with no "#| msgid" before it); --check also compares the
    # python-format placeholders and the plural forms with the header.
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is missing: python3 dev.py test installs it"
    checked = subprocess.run(
        [msgfmt, "--check", "-o", "/dev/null", str(catalogue_path(language))],
        capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_it_compiles_each_catalogue_into_a_new_file_so_a_running_server_never_reads_half_of_one():
    # The test runs (and the servers they start) share the checkout's locale/ folder, and each
    # run compiles it (tests/rules/conftest.py): a catalogue rewritten in place was once read
    # half-written by another run's server, which answered every page with a 500.
    compiled = {language: catalogue_path(language).with_suffix(".mo") for language in TRANSLATED_LANGUAGES}
    before = {language: path.stat().st_ino for language, path in compiled.items()}
    call_command("compiletranslations", stdout=io.StringIO())
    for language, path in compiled.items():
        after = path.stat()
        assert after.st_ino != before[language], f"{language}: rewritten in place, not replaced whole"
        assert after.st_mode & 0o777 == 0o644, f"{language}: a server running as another user could not read it"
        assert path.read_bytes() == catalogue(language).to_binary()


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


@pytest.fixture(scope="session")
def strings_in_the_code(tmp_path_factory):
    """Every (context, msgid) makemessages finds in the code today, from a copy of the project.

    A copy, because makemessages rewrites the catalogues it is pointed at. It needs GNU
    gettext's xgettext, which dev.py checks for before the tests run.
    """
    copy = tmp_path_factory.mktemp("extract") / "project"
    shutil.copytree(settings.BASE_DIR, copy, ignore=NOT_SOURCE)
    shutil.rmtree(copy / "locale")
    (copy / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-location", "--no-obsolete", "-v", "0"],
        cwd=copy, check=True,
    )
    extracted = polib.pofile(str(copy / "locale" / "en" / "LC_MESSAGES" / "django.po"))
    return {(entry.msgctxt, entry.msgid) for entry in extracted}


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_has_an_entry_for_every_string_in_the_code(language, strings_in_the_code):
    present = {(entry.msgctxt, entry.msgid) for entry in catalogue(language) if not entry.obsolete}
    missing = sorted(f"{context + ' | ' if context else ''}{msgid[:60]}" for context, msgid in strings_in_the_code - present)
    assert missing == [], "run makemessages and translate the new strings"


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_holds_no_entry_that_makemessages_would_drop(language, strings_in_the_code):
    # An entry the code no longer uses (or uses where xgettext cannot see it, as inside an
    # f-string) becomes "#~" at the next makemessages, and its translation stops showing.
    po = catalogue(language)
    present = {(entry.msgctxt, entry.msgid) for entry in po if not entry.obsolete}
    unused = sorted(f"{context + ' | ' if context else ''}{msgid[:60]}" for context, msgid in present - strings_in_the_code)
    assert unused == [], "remove these entries, or make their strings visible to xgettext"
    assert [described(entry) for entry in po.obsolete_entries()] == []


def test_it_keeps_every_colon_inside_its_message():
    # "Melds:" is one message: a language that punctuates differently (a space before the
    # colon, or none) can then translate it. A colon after the tag cannot be.
    after_a_tag = re.compile(r"\{%\s*(?:translate|trans)\s[^%]*%\}\s*:|\{%\s*endblocktranslate\s*%\}\s*:")
    templates = settings.BASE_DIR / "templates"
    found = [
        f"{path.relative_to(templates)}: {match.group(0)}"
        for path in sorted(templates.rglob("*.html"))
        for match in after_a_tag.finditer(path.read_text())
    ]
    assert found == []


# A number directly before a noun counts it, and the noun changes with the number
# ("1 point", "2 points"; Czech "2 body", "5 bodů"): such a message must be a plural
# entry, or no language can say "1 point". Placeholders that hold words (a person, a
# card) count nothing.
WORD_PLACEHOLDERS = {"name", "knocker", "defender", "card", "rank", "suit"}
BEFORE_A_WORD = re.compile(r"%\((?P<name>[^)]+)\)[sd] +(?P<word>[^\W\d_]+)")
# Turkish keeps the noun singular after every number ("3 puan"): it never needs one.
NOUNS_CHANGE_WITH_THE_NUMBER = [code for code in TRANSLATED_LANGUAGES if code != "tr"]


def counts_in_the_source(msgid):
    """An English number before a plural noun: "%(points)s points", "%(counter)s opponents"."""
    return any(
        found["name"] not in WORD_PLACEHOLDERS and found["word"].endswith("s")
        for found in BEFORE_A_WORD.finditer(msgid)
    )


def counts_in_a_translation(msgstr):
    """A count (named for what it counts, plural: points, cards; or a counter) before a
    word: "%(points)s Punkte", "%(cards)s karet"."""
    return any(
        found["name"].endswith("s") or found["name"].startswith("count")
        for found in BEFORE_A_WORD.finditer(msgstr)
    )


def singular_entries_that_count(language):
    return [
        described(entry)
        for entry in catalogue(language)
        if not entry.obsolete and not entry.msgid_plural
        and (counts_in_the_source(entry.msgid) or (language in NOUNS_CHANGE_WITH_THE_NUMBER and counts_in_a_translation(entry.msgstr)))
    ]


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_gives_every_message_that_counts_something_a_plural_form(language):
    assert singular_entries_that_count(language) == []


def test_it_tells_a_count_from_a_name_a_label_and_a_position():
    assert counts_in_the_source("%(name)s won %(points)s points")
    assert counts_in_the_source("%(counter)s opponents")
    assert not counts_in_the_source("%(name)s wins the match.")
    assert not counts_in_the_source("Move %(step)s of %(steps)s")
    assert not counts_in_the_source("Hand %(number)s:")
    assert counts_in_a_translation("%(name)s hat %(points)s Punkte erzielt")
    assert counts_in_a_translation("%(cards)s karet")
    assert not counts_in_a_translation("Zug %(step)s von %(steps)s")


# A name has no gender: %(name)s is free text, and the computer's players are Bea, Cleo
# and Max. A word beside a name that agrees with the person (Spanish "está listo", Czech
# "je připraven", "odešel", "přiložil") is wrong for half the players: say it in a form
# that agrees with anyone (Czech's present tense, a verb instead of an adjective). German
# participles and Turkish never change with the person, so they have nothing to find.
PLAYER_PLACEHOLDERS = {"name", "winner", "knocker", "defender", "first", "second"}
A_PLAYER = re.compile(r"%\((?:" + "|".join(sorted(PLAYER_PLACEHOLDERS)) + r")\)s")
# Messages shown under or beside a player's name without naming them.
SAID_OF_A_PLAYER = {
    ("next hand", "ready"),
    (None, "laid off %(cards)s card on the knocker’s melds"),
    ("gin rummy", "knocked"),
}
# The words that agree with the player: Spanish adjectives and participles after estar or
# ser; Czech past-tense participles (odešel, vzdala, přiložil) and the short passive after
# být (je připraven).
GENDERED = {
    "es": re.compile(
        r"^(?:list[oa]s?|preparad[oa]s?|sentad[oa]s?|conectad[oa]s?|desconectad[oa]s?)$"
        r"|^(?:está|estaba|estuvo|es|era|fue|queda|quedó|sigue) \w+(?:ad|id)[oa]s?$"
    ),
    "cs": re.compile(
        r"^\w+(?:[aáeěiíouyý]l|šel|šl|[kszř]l)[aoiy]?$"
        r"|^(?:je|byl[aoiy]?|bude|není) \w+(?:en|án|it|yt|ov)[aoiy]?$"
    ),
}
# Czech nouns that end like a participle.
NOT_A_PARTICIPLE = {"cíl", "rozdíl", "stůl", "úhel"}
# A name, a word, or what ends a clause (a comma, colon, semicolon, dash or stop).
TOKEN = re.compile(r"%\([^)]+\)s|[^\W\d_]+|[,:;.!?()–]")


def clauses(text):
    clause = []
    for token in TOKEN.findall(text):
        if token[0].isalpha() or token.startswith("%"):
            clause.append(token)
        else:
            yield clause
            clause = []
    yield clause


def words_beside_a_player(text, said_of_a_player=False):
    """Each word, and each pair of words, of a clause within two words of a player's name
    (of the message's start, for a message said of a player)."""
    places = []
    for number, words in enumerate(clauses(text)):
        named = [index for index, word in enumerate(words) if A_PLAYER.fullmatch(word)]
        if said_of_a_player and number == 0:
            named.append(-1)
        for index in named:
            near = [word for word in words[max(index - 2, 0):max(index, 0)] + words[index + 1:index + 3]
                    if not word.startswith("%")]
            places += near + [" ".join(pair) for pair in zip(near, near[1:])]
    return places


def gendered_beside_a_player(language, text, said_of_a_player=False):
    pattern = GENDERED.get(language)
    if pattern is None:
        return []
    return [
        words for words in words_beside_a_player(text, said_of_a_player)
        if pattern.search(words.lower()) and words.lower() not in NOT_A_PARTICIPLE
    ]


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_it_never_gives_a_player_s_name_a_gender(language):
    gendered = [
        f"{described(entry)}: {found}"
        for entry in catalogue(language)
        if not entry.obsolete
        for _source, text in pairs(entry)
        for found in gendered_beside_a_player(
            language, text, (entry.msgctxt, entry.msgid) in SAID_OF_A_PLAYER)
    ]
    assert gendered == []


def test_it_tells_a_word_that_agrees_with_the_player_from_one_that_agrees_with_a_noun():
    assert gendered_beside_a_player("es", "%(name)s está listo para la siguiente mano.")
    assert gendered_beside_a_player("es", "listo", said_of_a_player=True)
    assert gendered_beside_a_player("cs", "%(name)s je připraven na další hru.")
    assert gendered_beside_a_player("cs", "%(name)s odešel od stolu: zápas si připisuje %(winner)s.")
    assert gendered_beside_a_player("cs", "Zápas vyhrála %(name)s.")
    assert gendered_beside_a_player("cs", "přiložil %(cards)s kartu", said_of_a_player=True)
    assert not gendered_beside_a_player("es", "%(name)s se ha rendido; el encuentro es para %(winner)s.")
    assert not gendered_beside_a_player("es", "%(name)s quiere seguir.")
    assert not gendered_beside_a_player("cs", "%(name)s odchází od stolu: výhru si připisuje %(winner)s.")
    assert not gendered_beside_a_player("cs", "Zápas skončil odchodem hráče %(name)s od stolu; soupeř si připsal výhru.")
    assert not gendered_beside_a_player("cs", "%(name)s získává %(points)s bod, který se nezapsal do žádné partie")
    assert not gendered_beside_a_player("de", "%(name)s hat den Tisch verlassen.")
