"""Cards and melds (docs/rules.md, "Cards and melds")."""

import pytest

from games.engine import Card, best_melds, deadwood_points, parse_cards


def melds_of(text):
    melds, deadwood = best_melds(parse_cards(text))
    return sorted(" ".join(map(str, meld)) for meld in melds), " ".join(map(str, deadwood))


def test_it_parses_codes_and_gives_them_back():
    cards = parse_cards("AS TD 9H KC")
    assert [str(card) for card in cards] == ["AS", "TD", "9H", "KC"]
    assert Card.from_code("AS") is cards[0]


@pytest.mark.parametrize("code", ["1S", "AX", "as", "10H", "", "ASS"])
def test_it_rejects_a_bad_code_naming_it(code):
    with pytest.raises(ValueError, match=repr(code)):
        Card.from_code(code)


def test_it_names_the_bad_code_in_a_list():
    with pytest.raises(ValueError, match="'ZZ'"):
        parse_cards("AS ZZ 9H")


def test_it_counts_ace_one_pips_their_value_and_faces_ten():
    assert [card.value for card in parse_cards("AC 2C 9D TD JH QH KS")] == [1, 2, 9, 10, 10, 10, 10]


def test_it_treats_ace_low_so_ace_two_three_is_a_run():
    assert melds_of("AS 2S 3S 8C 9D JH KS 4H 6C 5D")[0] == ["AS 2S 3S"]


def test_it_does_not_wrap_queen_king_ace():
    assert melds_of("QS KS AS 8C 9D JH 2H 4H 6C 5D") == ([], "6C 8C 5D 9D 2H 4H JH AS QS KS")


def test_it_does_not_wrap_king_ace_two():
    assert deadwood_points(parse_cards("KS AS 2S 8C 9D JH 3H 4C 6C 5D")) == 58


def test_it_makes_sets_of_three_and_four():
    assert melds_of("7C 7D 7H KC KD KH KS 2C 4D 6H") == (["7C 7D 7H", "KC KD KH KS"], "2C 4D 6H")


def test_it_makes_runs_of_three_or_more():
    assert melds_of("4H 5H 6H 7H 8H 9H 2C 2D 5S 9S")[0] == ["4H 5H 6H 7H 8H 9H"]


def test_it_uses_a_card_in_one_meld_only():
    # 7H can close the set or the run, not both: the set leaves less (5H + 6H vs 7C + 7D).
    assert melds_of("7C 7D 7H 5H 6H KS QS JS 2C 3D") == (["7C 7D 7H", "JS QS KS"], "2C 3D 5H 6H")


def test_it_finds_the_least_deadwood_where_the_greedy_choice_fails():
    # Taking the four 5s first leaves 3S 4S 3H 4H; the best uses two sets of three and two runs.
    cards = "5C 5D 5H 5S 3S 4S 3H 4H 3C 4C"
    assert deadwood_points(parse_cards(cards)) == 0
    assert len(best_melds(parse_cards(cards))[0]) == 3


def test_it_counts_the_least_deadwood_of_eleven_cards():
    assert deadwood_points(parse_cards("AS 2S 3S 7C 7D 7H KD KH 9C 4D QS")) == 43


def test_it_rejects_a_card_given_twice():
    with pytest.raises(ValueError):
        deadwood_points(parse_cards("AS AS 2S"))
