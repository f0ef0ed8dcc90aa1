import random

import pytest

from games.archive.simulate import play_match
from tests.archive.helpers import hand, make_player, record, record_engine_match


@pytest.fixture
def ana(db):
    return make_player("Ana")


@pytest.fixture
def ben(db):
    return make_player("Ben")


@pytest.fixture
def cyd(db):
    return make_player("Cyd")


@pytest.fixture
def fixed_matches(ana, ben, cyd):
    """Three finished matches whose numbers are counted by hand in test_stats.py."""
    single = record("single", (ben, ana), "hand", [hand(0, "gin", 31)], day=0)
    one_game = record(
        "one-game",
        (ana, ben),
        "game",
        [
            hand(0, "gin", 40),
            hand(1, "knock", 20),
            hand(None, "draw", 0),
            hand(0, "undercut", 30),
            hand(0, "knock", 35),
        ],
        day=1,
    )
    hollywood = record(
        "hollywood",
        (ana, cyd),
        "hollywood",
        [hand(0, "knock", 100), hand(0, "gin", 110), hand(1, "undercut", 100), hand(0, "knock", 100)],
        day=2,
    )
    return single, one_game, hollywood


@pytest.fixture
def engine_match(ana, ben):
    """A Hollywood match played by the engine, recorded as live play records it."""
    return record_engine_match((ana, ben), play_match("hollywood", 100, rng=random.Random(11)), code="played")
