"""A level's choices are fixed by its view and the state of the rng it is given."""

import pytest

from games.computer import LEVELS

from .helpers import play_match


@pytest.mark.parametrize("level", LEVELS)
def test_it_plays_the_same_match_again_from_the_same_seeds(level):
    first = play_match((level, "club"), seed=5, target=15)
    assert play_match((level, "club"), seed=5, target=15) == first


def test_it_plays_differently_from_different_seeds():
    assert play_match(("beginner", "beginner"), seed=1) != play_match(("beginner", "beginner"), seed=2)
