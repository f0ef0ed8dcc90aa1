"""On every view of a match played at random, each level answers one of the legal moves."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.computer import LEVELS, choose_move
from games.engine import SCORINGS, Match, Options

# A small budget keeps the search short; what it may answer is the same at any budget.
BUDGET_MS = 5


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    scoring=st.sampled_from(SCORINGS),
    straight=st.booleans(),
    oklahoma=st.booleans(),
    choices=st.lists(st.integers(0, 2**16), min_size=1, max_size=120),
)
def test_it_answers_a_legal_move_on_every_view_of_a_fuzzed_match(seed, scoring, straight, oklahoma, choices):
    match = Match(Options(straight=straight, oklahoma=oklahoma), scoring=scoring, target=30, first_dealer=seed % 2, rng=random.Random(seed))
    for choice in choices:
        if match.hand.result is not None:
            if match.is_over:
                break
            match.next_hand()
            continue
        view = match.view(match.hand.to_move)
        legal = view["hand_view"]["legal_moves"]
        for level in LEVELS:
            assert choose_move(view, level, random.Random(choice), budget_ms=BUDGET_MS) in legal
        # The match itself goes on at random: odd draws, early knocks, cards thrown back.
        match.play(legal[choice % len(legal)])
