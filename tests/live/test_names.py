"""Players' names: what a name may be (games.identity's rule, through games.live.clean)."""

import pytest

from games.errors import GameError
from games.live.clean import clean_name


@pytest.mark.parametrize("name, code", [
    ("", "name_missing"), (" \t ", "name_missing"), ("x" * 500, "name_too_long"),
    ("Ana\nBen", "name_not_printable"), ("\u202eAna", "name_not_printable"), (None, "name_missing"),
])
def test_it_refuses_bad_names(name, code):
    with pytest.raises(GameError) as refused:
        clean_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize("name", ["\u3164", "\u3164 \u3164", "\u2800\u2800", "\u200d", "\u3164\u200d\u2800",
                                  "\u0301\u0301", "\u2800\u00a0\u2800", "\uffa0\u115f\u1160"])
def test_it_refuses_a_name_with_nothing_visible_in_it(name):
    with pytest.raises(GameError) as refused:
        clean_name(name)
    assert refused.value.code == "name_invisible"


def test_it_refuses_a_name_whose_letter_carries_a_pile_of_accents():
    with pytest.raises(GameError) as refused:
        clean_name("a" + "\u0301" * 150)
    assert refused.value.code == "name_too_many_marks"
    with pytest.raises(GameError):
        clean_name("Ana" + "\u0301" * 5)


@pytest.mark.parametrize("name", ["Nguye\u0302\u0303n", "\u05e9\u05c1\u05b8\u05bc\u05dc\u05d5\u05b9\u05dd", "👩‍💻",
                                  "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "\u3164Ana", "❤️"])
def test_it_keeps_names_with_a_few_marks_joiners_and_fillers_beside_something_visible(name):
    assert clean_name(name) == name


def test_it_trims_names_and_keeps_24_characters():
    assert clean_name("  Ana  ") == "Ana"
    assert clean_name("Ñ" * 24) == "Ñ" * 24
