"""Saving a match to JSON and reading it back exactly."""

import json
import random

import pytest

from games.archive.simulate import play_match
from games.engine import Match, Options

from .helpers import draw_and_discard_until, play
from .test_match import replayed


def reloaded(match, seed=9):
    return Match.from_json(match.to_json(), rng=random.Random(seed))


def seen(match):
    return json.dumps([match.hand.view(0), match.hand.view(1), match.hand.legal_moves()])


def test_it_reads_back_a_match_saved_in_the_middle_of_a_hand():
    match = Match(Options(oklahoma=True), scoring="hollywood", rng=random.Random(4))
    play(match.hand, "pass", "pass", "stock")
    copy = reloaded(match)
    assert seen(copy) == seen(match) and copy.to_json() == match.to_json()
    assert [str(card) for card in copy.hand.stock] == [str(card) for card in match.hand.stock]


def test_it_goes_on_at_the_same_card_after_reading_back():
    match = Match(Options(), scoring="game", rng=random.Random(6))
    play(match.hand, "pass", "pass", "stock")
    copy = reloaded(match)
    for game in (match, copy):
        game.play(game.hand.legal_moves()[-1])
        game.play("stock")
    assert seen(copy) == seen(match)


def test_it_replays_a_reshuffle_in_the_same_order():
    match = Match(Options(), scoring="hand", rng=random.Random(8))
    draw_and_discard_until(match.hand, stock_left=0)
    match.play("stock")
    copy = reloaded(match, seed=123)
    assert [str(card) for card in copy.hand.stock] == [str(card) for card in match.hand.stock]
    assert seen(copy) == seen(match)


def test_it_reads_back_the_sheet_of_several_hands():
    match = replayed("hollywood", [1, 0, 1])
    match.next_hand()
    copy = reloaded(match)
    assert copy.sheet.to_dict() == match.sheet.to_dict() and copy.results == match.results
    assert seen(copy) == seen(match)


def test_it_refuses_a_saved_hand_with_the_wrong_dealer():
    data = json.loads(replayed("hollywood", [1, 0]).to_json())
    data["hands"][1]["dealer"] = 0
    with pytest.raises(ValueError):
        Match.from_dict(data)


def test_it_refuses_a_saved_move_that_is_illegal():
    data = json.loads(replayed("hollywood", [1]).to_json())
    data["hands"][0]["moves"][1] = "knock 2C"
    with pytest.raises(ValueError):
        Match.from_dict(data)


def test_it_reshuffles_with_the_rng_it_was_last_given_whether_read_back_or_kept():
    match = Match(Options(), scoring="hand", rng=random.Random(8))
    draw_and_discard_until(match.hand, stock_left=0)
    copy = reloaded(match, seed=77)
    match.use_rng(random.Random(77))  # what a live table does with a match it kept in memory
    for game in (match, copy):
        game.play("stock")
    assert [str(card) for card in match.hand.reshuffles[0]] == [str(card) for card in copy.hand.reshuffles[0]]


def test_it_reads_back_every_hand_of_a_whole_match():
    # The archive reads each hand's deck and moves from this save format.
    played = play_match("hollywood", 100, rng=random.Random(7))
    saved = Match.from_json(played.to_json())
    assert [hand.to_dict() for hand in saved.hands] == [hand.to_dict() for hand in played.hands]
