"""Every level, under every option, only ever chooses one of the legal moves it was shown."""

import pytest

from games.computer import LEVELS
from games.engine import SCORINGS

from .helpers import play_match

OPTIONS = [(False, False), (True, False), (False, True), (True, True)]


def moves_checked(levels, scoring, straight, oklahoma, seeds):
    checked = []

    def check(view, move):
        assert move in view["hand_view"]["legal_moves"]
        checked.append(move)

    for seed in seeds:
        play_match(levels, seed, scoring=scoring, target=10, straight=straight, oklahoma=oklahoma, on_move=check)
    return checked


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize(("straight", "oklahoma"), OPTIONS)
@pytest.mark.parametrize("level", LEVELS)
def test_it_never_chooses_an_illegal_move(level, scoring, straight, oklahoma):
    checked = moves_checked((level, LEVELS[0]), scoring, straight, oklahoma, seeds=range(1))
    # Both seats moved, knocks and discards alike: the matches really were played.
    assert any(move.startswith("knock") for move in checked)
    assert len(checked) > 20


def test_it_names_at_least_three_levels_weakest_first():
    assert LEVELS[:1] == ("beginner",) and len(LEVELS) >= 3


def test_it_refuses_to_move_for_a_seat_that_is_not_to_move():
    from games.computer import choose_move
    from games.engine import Match

    match = Match(scoring="game")
    with pytest.raises(ValueError):
        choose_move(match.view(match.hand.dealer), "club", None)
