"""Each card's name in each language, as a speaker of it says the card."""

import pytest
from django.utils import translation

from games.display.cards import card_name


# Czech makes the suit an adjective agreeing with the rank's gender; German joins the
# suit to the rank; Turkish puts a possessive suffix on the rank, a number card's in its
# "-li" form as players say it (kupa yedilisi, karo onlusu; "karo onu" reads as "onu",
# "him").
@pytest.mark.parametrize(("language", "names"), [
    ("cs", ["pikové eso", "srdcová sedma", "křížový kluk", "kárová dáma", "srdcový král"]),
    ("de", ["Pik-Ass", "Herz-7", "Kreuz-Bube", "Karo-Dame", "Herz-König"]),
    ("es", ["as de picas", "7 de corazones", "jota de tréboles", "reina de diamantes", "rey de corazones"]),
    ("tr", ["maça ası", "kupa yedilisi", "sinek valesi", "karo kızı", "kupa papazı"]),
])
def test_it_names_each_card_as_the_language_does(language, names):
    with translation.override(language):
        assert [card_name(code) for code in ("AS", "7H", "JC", "QD", "KH")] == names
