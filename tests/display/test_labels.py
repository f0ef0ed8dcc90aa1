from django.utils import translation

from games.display.labels import PLURAL_SAMPLES, unread_forms


def test_it_gives_the_chat_badge_czech_words_for_one_a_few_and_five_unread_lines():
    with translation.override("cs"):
        forms = unread_forms()
    assert (forms[1], forms[2], forms[5]) == ("{count} nová", "{count} nové", "{count} nových")


def test_it_gives_the_chat_badge_words_for_every_sample_count_in_english():
    with translation.override("en"):
        assert unread_forms() == {count: "{count} new" for count in PLURAL_SAMPLES}
