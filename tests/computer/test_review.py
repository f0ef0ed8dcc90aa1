"""The computer's review of a match: judged from each mover's view, deterministic, honest about noise."""

import random

from games.archive.simulate import choose_move
from games.computer.review import TAGS, move_accuracy, review_hand, seat_summaries, tag_for, weigh
from games.engine import Match, Options
from tests.computer.test_view_only import match_view, played_to, twin_decks


def test_it_weighs_two_decisions_with_the_same_view_but_different_hidden_cards_alike():
    for seed in range(3):
        dealer = seed % 2
        seat = played_to(twin_decks(seed, dealer, 0)[0], dealer).to_move
        real, twin = (played_to(deck, dealer) for deck in twin_decks(seed, dealer, 1 - seat))
        assert real.hands[1 - seat] != twin.hands[1 - seat]
        view, twin_view = match_view(real, seat), match_view(twin, seat)
        assert view == twin_view
        assert weigh(view, "stock", "a seed") == weigh(twin_view, "stock", "a seed")


def single_hand(seed):
    match = Match(Options(), scoring="hand", first_dealer=0, rng=random.Random(seed))
    rng = random.Random(seed)
    while match.hand.result is None:
        match.play(choose_move(match.hand, rng))
    return match.to_dict()


def test_it_reviews_the_same_hand_the_same_way_twice():
    save = single_hand(5)
    assert review_hand(save, 1, "m1").to_dict() == review_hand(save, 1, "m1").to_dict()


def test_it_weighs_each_decision_of_both_seats_with_a_loss_never_below_zero():
    save = single_hand(6)
    review = review_hand(save, 1, "m2").to_dict()
    moves = save["hands"][0]["moves"]
    assert {decision["seat"] for decision in review["decisions"]} == {0, 1}
    for decision in review["decisions"]:
        assert moves[decision["step"]] == decision["played"]
        assert decision["loss"] >= 0 and decision["best"] in decision["values"]
    assert review["chances"][-1][1] in (0.0, 50.0, 100.0)


def test_it_tags_a_loss_only_past_its_threshold_by_more_than_its_standard_error():
    thresholds = dict(TAGS)
    assert tag_for(thresholds["inaccuracy"] + 0.5, 1.0) is None
    assert tag_for(thresholds["inaccuracy"] + 1.5, 1.0) == "inaccuracy"
    assert tag_for(thresholds["mistake"] + 0.5, 0.2) == "mistake"
    assert tag_for(thresholds["blunder"] + 0.5, 1.0) == "mistake"
    assert tag_for(40.0, 1.0) == "blunder"


def test_it_gives_a_move_that_loses_nothing_nearly_full_accuracy_and_a_blunder_little():
    assert move_accuracy(0.0) > 99.9
    assert move_accuracy(dict(TAGS)["blunder"]) < 60.0 < move_accuracy(dict(TAGS)["inaccuracy"])


def test_it_sums_each_seats_tags_and_averages_its_luck_per_hand():
    hands = [{"decisions": [{"seat": 0, "loss": 12.0, "tag": "mistake"}, {"seat": 1, "loss": 0.0, "tag": None}], "luck": [10.0, -4.0]},
             {"decisions": [{"seat": 0, "loss": 0.0, "tag": None}], "luck": [0.0, 2.0]}]
    mine, theirs = seat_summaries(hands)
    assert (mine["mistakes"], mine["blunders"], mine["luck"]) == (1, 0, 5.0)
    assert (theirs["accuracy"], theirs["luck"]) == (100.0, -1.0)
