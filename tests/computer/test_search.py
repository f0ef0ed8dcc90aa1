"""The expert's discard search: its moves are legal, and fixed by the view and the rng's state."""

import random

from games.computer import choose_move
from games.computer.knowledge import read
from games.computer.players import searches_discards
from games.computer.search import evaluate_discards
from games.computer.stakes import Stakes
from games.engine import Match

from .helpers import play_match


def searched_views(seed, count):
    """Views of the expert's discards in a match's first hand, where it searches them."""
    found = []

    def watch(view, move):
        hand_view = view["hand_view"]
        if hand_view["seat"] == 0 and hand_view["phase"] == "discard" and searches_discards(view, read(hand_view), False):
            found.append(view)

    play_match(("expert", "club"), seed, target=10, on_move=watch)
    return found[:count]


def test_the_searched_discards_are_legal_and_the_same_from_the_same_rng():
    views = [view for seed in range(3) for view in searched_views(seed, 3)]
    assert views
    for view in views:
        move = choose_move(view, "expert", random.Random(7), budget_ms=10)
        assert move in view["hand_view"]["legal_moves"]
        assert choose_move(view, "expert", random.Random(7), budget_ms=10) == move


def test_every_candidate_meets_the_same_worlds_and_gets_a_match_value():
    view = searched_views(0, 1)[0]
    knowledge = read(view["hand_view"])
    moves = [move for move in view["hand_view"]["legal_moves"] if move.startswith("discard")][:3]
    values = evaluate_discards(knowledge, moves, Stakes(view, knowledge.seat), 8, random.Random(3), ((3, 10),))
    assert set(values) == set(moves) and all(len(seen) == 8 and all(0.0 <= value <= 1.0 for value in seen) for seen in values.values())
    assert evaluate_discards(knowledge, moves, Stakes(view, knowledge.seat), 8, random.Random(3), ((3, 10),)) == values


def test_it_searches_only_early_and_only_before_a_read_or_against_a_fast_knocker():
    view = Match(scoring="game").view(0)
    knowledge = type("Seen", (), {"opponent_turns": 1})()
    assert searches_discards(view, knowledge, fast=False)
    assert not searches_discards({**view, "results": [object()]}, knowledge, fast=False)
    assert searches_discards({**view, "results": [object()]}, knowledge, fast=True)
    knowledge.opponent_turns = 40
    assert not searches_discards(view, knowledge, fast=True)
