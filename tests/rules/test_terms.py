"""Each page shows its language's own terms, as the owner's source texts use them.
English is the source language; the others pass once the
translators have done their part: these tests are their acceptance test."""

import pytest
from django.utils import translation

from games.display.labels import scoring_label
from tests.rules.html import elements, main_text
from tests.rules.pages import get_page

HOLLYWOOD = {
    "en": "Hollywood scoring",
    "es": "Puntuación Hollywood",
    "de": "Hollywood-Wertung",
    "cs": "Bodování Hollywood",
    "tr": "Hollywood puanlaması",
}

TERMS = {
    "home": {language: [term] for language, term in HOLLYWOOD.items()},
    "hollywood_scoring": {
        "en": ["Rummy variant", "Hollywood scoring", "What is Hollywood scoring?", "Rule changes", "Standard Rummy"],
        "es": ["Puntuación Hollywood", "¿Qué es Puntuación Hollywood?", "Cambios en las reglas", "Rummy estándar"],
        "de": ["Rommé-Variante", "Hollywood-Wertung", "Was ist Hollywood-Wertung?", "Regeländerungen", "Standard-Rommé"],
        "cs": ["Bodování Hollywood", "Co je Bodování Hollywood?", "Změny pravidel", "Standardní Rummy"],
        "tr": ["Hollywood puanlaması", "Hollywood puanlaması nedir?", "Kural değişiklikleri", "Standart Rummy"],
    },
    "history": {
        "en": ["History", "Hollywood Gin", "Elwood T. Baker", "1941"],
        "es": ["Historia", "Hollywood Gin", "Elwood T. Baker", "1941"],
        "de": ["Geschichte", "Hollywood Gin", "Elwood T. Baker", "1941"],
        "cs": ["Historie", "Hollywood Gin", "Elwood T. Baker", "1941"],
        "tr": ["Tarihçe", "Hollywood Gin", "Elwood T. Baker", "1941"],
    },
    "how_to_play": {
        "en": ["stock", "Straight Gin", "Oklahoma", HOLLYWOOD["en"]],
        "es": ["mazo", "Gin sin cierre", "Oklahoma", HOLLYWOOD["es"]],
        "de": ["Talon", "Straight Gin", "Oklahoma", HOLLYWOOD["de"]],
        "cs": ["talon", "Straight Gin", "Oklahoma", HOLLYWOOD["cs"]],
        "tr": ["deste", "Straight Gin", "Oklahoma", HOLLYWOOD["tr"]],
    },
}

# The page chrome as the German capture of the owner's page shows it.
CHROME = {
    "en": ["Skip to main content", "Beta", "No sign-up needed. Share the link and play."],
    "de": ["Zum Inhalt springen", "Beta", "Keine Anmeldung nötig. Link teilen und losspielen."],
}

# The comparison table's ten rows, in order, by their data-row hooks.
COMPARISON_ROWS = [
    "duration", "score-sheet", "where-a-win-scores", "finished-games", "target",
    "bonuses", "next-hand", "end-of-stock", "winning", "other-options",
]


def missing_terms(text, terms):
    folded = text.casefold()
    return [term for term in terms if term.casefold() not in folded]


def test_it_shows_the_language_s_own_terms_on_every_page(client, page_name, language):
    text = main_text(get_page(client, page_name, language))
    assert missing_terms(text, TERMS[page_name][language]) == []


@pytest.mark.parametrize("language", CHROME)
def test_it_shows_the_page_chrome_in_the_source_page_s_words(client, language):
    html = get_page(client, "hollywood_scoring", language)
    assert missing_terms(html, CHROME[language]) == []


def test_it_titles_the_hollywood_page_with_the_language_s_term(client, language):
    html = get_page(client, "hollywood_scoring", language)
    assert f"<h1>{HOLLYWOOD[language]}</h1>" in html


def test_it_shows_the_comparison_table_with_its_ten_rows(client, language):
    html = get_page(client, "hollywood_scoring", language)
    rows = [row["data-row"] for row in elements(html, "tr") if "data-row" in row]
    assert rows == COMPARISON_ROWS


def test_it_heads_every_comparison_row_and_column(client, language):
    html = get_page(client, "hollywood_scoring", language)
    assert len(elements(html, "th", inside="comparison", scope="col")) == 3
    assert len(elements(html, "th", inside="comparison", scope="row")) == 10


def comparison_cells(html, row):
    """The <td> elements of one comparison row, as HTML."""
    start = html.index(f'data-row="{row}"')
    return html[start:html.index("</tr>", start)].split("<td")[1:]


def test_it_compares_hollywood_with_the_one_game_the_site_offers(client, language):
    html = get_page(client, "hollywood_scoring", language)
    with translation.override(language):
        modes = [str(scoring_label(name)) for name in ("game", "hand")]
    assert missing_terms(main_text(html), modes) == []
    standard_target = comparison_cells(html, "target")[0]
    assert "100" in standard_target and "250" in standard_target
    # One game and Hollywood deal the next hand and end the stock alike: one cell for both.
    for row in ("bonuses", "next-hand", "end-of-stock"):
        cells = comparison_cells(html, row)
        assert len(cells) == 1 and cells[0].startswith(' colspan="2"'), row


# A hand that ends with two cards left in the stock has no winner; "a tie" would say
# both players scored the same.
VOID_HAND = {"en": "No winner", "es": "Sin ganador", "de": "Ohne Gewinner", "cs": "Bez vítěze", "tr": "Kazanan yok"}


def test_it_calls_a_void_hand_one_without_a_winner_not_a_tie(language):
    with translation.override(language):
        assert translation.pgettext("hand result", "No winner") == VOID_HAND[language]


def test_it_states_the_czech_deadwood_rule_as_the_lowest_value_not_the_fewest_cards(client):
    text = main_text(get_page(client, "how_to_play", "cs"))
    assert "nejméně" not in text
    assert text.count("nejnižší součet mrtvých karet") == 2
