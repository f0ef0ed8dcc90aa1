"""The words the native reviewers chose (shared/reviews/translations-round-3.md and -4.md),
pinned where a later edit could quietly bring back the word they replaced."""

import polib
import pytest
from django.conf import settings

# (language, context, msgid): (a word every form must hold, a word no form may hold)
CHOSEN = {
    ("es", None, "With a clock, each player also has a bank of %(seconds)s second a match for long turns; when a player’s time runs out, the computer plays the move for them."):
        ("por encuentro", "por partida"),
    ("es", None, "The server lost its database. Reconnecting to it…"): ("perdido la conexión", "perdido su base"),
    ("es", None, "Discard: give up a card that is in no meld, a high one first (a jack, queen or king counts 10). The number on each card is the deadwood you would keep."):
        ("la jota", "sota"),
    ("es", None, "%(name)s knocked, laying the %(card)s face down."): ("ha cerrado", "cerró"),
    ("es", "chat messages", "%(count)s new"): ("sin leer", "nuevos"),
    ("de", None, "Turn clock"): ("Bedenkzeit", "Zuguhr"),
    ("de", None, "No clock"): ("Zeitlimit", "Uhr"),
    ("cs", None, "You may knock: your deadwood would be %(limit)s or less. Knock to end the hand now, or play on for gin."):
        ("za %(limit)s nebo méně", "bodů"),
    ("cs", None, "Discard: give up a card that is in no meld, a high one first (a jack, queen or king counts 10). The number on each card is the deadwood you would keep."):
        ("kluk, dáma", "spodek"),
    ("cs", None, "Tap a card to pick it, then tap it again or the discard pile."): ("Ťuknutím", "Klepnutím"),
    ("cs", None, "Turn clock"): ("Čas na tah", "Hodiny"),
    ("tr", None, "%(winner)s won: %(loser)s resigned"): ("pes etti", "çekildi"),
    ("tr", None, "Skip the guide"): ("atla", "geçin"),
    ("tr", None, "on a card: your deadwood after discarding it"): ("kalacak ölü kart puanı", "kalan ölü kartınız"),
    ("tr", None, "Turn clock"): ("Hamle süresi", "saati"),
}

# Words the reviews removed from a whole catalogue: another card deck's rank, a coinage, the
# knocking verb used for a tap, a second word for resigning.
NEVER = {
    "es": ["sota"],
    "de": ["Zuguhr"],
    "cs": ["spodek", "Klepnutím", "klepněte na"],
    "tr": ["maçtan çekil", "Hamle saati"],
}


def forms(entry):
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def entries(language):
    path = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    return {(entry.msgctxt, entry.msgid): entry for entry in polib.pofile(str(path)) if not entry.obsolete}


@pytest.mark.parametrize("language", sorted(NEVER))
def test_it_keeps_the_words_the_native_review_chose(language):
    catalogue = entries(language)
    wrong = []
    for (lang, context, msgid), (kept, replaced) in CHOSEN.items():
        if lang != language:
            continue
        for text in forms(catalogue[(context, msgid)]):
            if kept not in text or replaced in text:
                wrong.append(f"{msgid[:40]}: {text}")
    assert wrong == []


@pytest.mark.parametrize("language", sorted(NEVER))
def test_it_never_brings_back_a_word_the_native_review_removed(language):
    found = [f"{word}: {text}" for entry in entries(language).values() for text in forms(entry)
             for word in NEVER[language] if word.casefold() in text.casefold()]
    assert found == []
