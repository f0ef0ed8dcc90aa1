from django.utils import translation

from games.display.labels import PLURAL_SAMPLES, unread_forms


def test_it_gives_the_chat_badge_czech_words_for_one_a_few_and_five_unread_lines():
    with translation.override("cs"):
        forms = unread_forms()
    assert (forms[1], forms[2], forms[5]) == ("{count} nová", "{count} nové", "{count} nových")


def test_it_gives_the_chat_badge_words_for_every_sample_count_in_english():
    with translation.override("en"):
        assert unread_forms() == {count: "{count} new" for count in PLURAL_SAMPLES}


def test_it_says_a_discard_with_the_cards_picture_and_its_name():
    from games.display.labels import move_html

    with translation.override("en"):
        html = move_html("discard 7H")
    assert html.startswith("discards ") and 'data-card="7H"' in html and 'aria-label="7 of hearts"' in html


def test_it_says_each_move_in_the_readers_language():
    from games.display.labels import move_html

    with translation.override("cs"):
        said = [move_html(move) for move in ("pass", "pile", "stock")]
        knock = move_html("knock 7H")
    assert said == ["pasuje", "bere odhozenou kartu", "líže z talonu"]
    assert knock.startswith("klepe a odhazuje ") and 'aria-label="srdcová sedma"' in knock
