import pytest
from django.template import Context, Template, TemplateSyntaxError

from games.display.cards import CARD_NAMES, card_name as card_label
from games.engine.cards import RANKS, SUITS
from games.templatetags.cards import card


def test_it_draws_a_card_from_its_rank_and_suit():
    html = card("7H")
    assert 'class="card card--hearts"' in html  # red by its suit's class (site.css, table.css)
    # Like a printed card: rank and suit in two opposite corners, a large suit between;
    # its text is the corner alone, so a voice user says what they see ("7♥").
    assert html.count("<b>7<i>♥</i></b>") == 1
    assert '<b data-face="7♥"></b>' in html  # the suit between: table.css, by the suit's class


def test_it_shows_a_ten_as_10():
    assert "<b>10<i>♦</i></b>" in card("TD")


def test_it_draws_a_card_that_cannot_be_played_as_a_button_that_says_why():
    html = card("7H", label="7♥: just taken", refusal="A card taken from the pile may not be discarded.")
    assert html.startswith("<button") and 'aria-disabled="true"' in html and "data-move" not in html
    assert 'data-refusal="A card taken from the pile may not be discarded."' in html


def test_it_escapes_what_a_card_button_says_and_leaves_safe_markup_as_it_is():
    from django.utils.safestring import mark_safe
    pressed = card("7H", move="discard 7H", label='7♥: "Ana" & <Ben>', classes="deadwood", after=12)
    assert pressed == ('<button class="card card--hearts deadwood" id="card-7H" data-move="discard 7H" data-card="7H" '
                       'data-value="7" aria-label="7♥: &quot;Ana&quot; &amp; &lt;Ben&gt;"><b>7<i>♥</i></b>'
                       '<b data-face="7♥"></b><i data-face="12"></i></button>')
    refused = card("KS", label=mark_safe("K♠: <em>taken</em>"), refusal="Not 'now'")
    assert refused == ('<button class="card card--spades" id="card-KS" data-card="KS" data-refusal="Not &#x27;now&#x27;" '
                       'aria-disabled="true" aria-label="K♠: <em>taken</em>"><b>K<i>♠</i></b><b data-face="K♠"></b></button>')


def test_it_names_the_card_for_screen_readers():
    assert 'role="img" aria-label="7 of hearts"' in card("7H")


def test_it_names_the_picture_cards_in_words():
    assert [card_label(code) for code in ("AS", "JC", "QD", "KH")] == [
        "ace of spades", "jack of clubs", "queen of diamonds", "king of hearts",
    ]


def test_it_names_every_card_of_the_deck():
    assert sorted(CARD_NAMES) == sorted(rank + suit for rank in RANKS for suit in SUITS)


@pytest.mark.parametrize("code", ["1H", "7X", "10H", "", "7h"])
def test_it_refuses_a_code_that_is_not_a_card(code):
    with pytest.raises(TemplateSyntaxError):
        card(code)


def test_it_draws_several_cards_side_by_side():
    html = Template('{% load cards %}{% cards "5S 6S 7S" %}').render(Context())
    assert html.startswith('<span class="cards">')
    assert html.count('class="card card--spades"') == 3


def test_it_draws_a_list_of_codes_as_well_as_a_string():
    assert Template("{% load cards %}{% cards codes %}").render(Context({"codes": ["AS", "2S"]})).count('class="card card--spades"') == 2


def test_it_draws_a_hand_face_down_as_so_many_backs_hidden_from_screen_readers():
    html = Template('{% load cards %}{% card_backs 3 classes="small" %}').render(Context())
    assert html == '<span class="card back small" aria-hidden="true"></span>' * 3
    assert Template("{% load cards %}{% card_backs 0 %}").render(Context()) == ""
