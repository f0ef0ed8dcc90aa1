"""Moves as values, and scoring modes as values."""

import pytest

from games.engine import SCORING_MODES, Card, Match, Move, Options, scoring_mode


@pytest.mark.parametrize("text", ["pass", "pile", "stock", "discard 7H", "knock TD"])
def test_it_reads_and_writes_every_kind_of_move(text):
    assert Move.from_text(text).text() == text


def test_it_names_the_card_a_discard_puts_down():
    move = Move.from_text("discard 7H")
    assert (move.verb, move.card, move.is_discard) == ("discard", Card.from_code("7H"), True)


@pytest.mark.parametrize("text", ["", "draw", "pass 7H", "discard", "discard 1H", "knock 7H 8H", None, 7, "x" * 500])
def test_it_refuses_text_that_names_no_move(text):
    with pytest.raises(ValueError):
        Move.from_text(text)


def test_it_plays_the_stock_end_rule_of_each_scoring_mode():
    for mode in SCORING_MODES:
        assert Match(Options(), scoring=mode.name).options.stock_end == mode.stock_end


def test_it_gives_each_scoring_mode_a_sheet_with_its_number_of_games():
    assert {mode.name: len(mode.new_sheet(100).games) for mode in SCORING_MODES} == {"hand": 0, "game": 1, "hollywood": 3}


def test_it_refuses_a_scoring_mode_it_does_not_know():
    with pytest.raises(ValueError):
        scoring_mode("rubber")
