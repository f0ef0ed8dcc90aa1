"""A hand: the deal, the first turn, turns, knocking (docs/rules.md, "A hand", 1 to 4)."""

import json

import pytest

from games.engine import IllegalMove, Options, new_hand

from .helpers import deal, deck_for, play

KNOCKER = "AS 2S 3S 4H 5H 6H 8C 8D 8H KC"  # deadwood 10 (KC)
DEFENDER = "9S TS JS 4C 5C 6C QD KD 7H 3H"
NO_CLUBS = "9S TS JS QD KD 7H 3H 9H 2D 6D"


def a_hand(**options):
    return deal(KNOCKER, DEFENDER, upcard="2C", stock="9C JC", options=Options(**options))


def test_it_deals_ten_each_one_at_a_time_non_dealer_first():
    hand = a_hand()
    assert sorted(hand.view(1)["hand"]) == sorted(KNOCKER.split())
    assert sorted(hand.view(0)["hand"]) == sorted(DEFENDER.split())


def test_it_turns_up_the_next_card_and_leaves_the_rest_as_stock():
    view = a_hand().view(1)
    assert (view["discard_top"], view["discard_count"], view["stock_count"]) == ("2C", 1, 31)


def test_it_deals_the_stock_in_the_given_order():
    hand = play(a_hand(), "pass", "pass", "stock")
    assert "9C" in hand.view(1)["hand"]


def test_it_offers_the_upcard_to_the_non_dealer_first():
    hand = a_hand()
    assert (hand.to_move, hand.phase, hand.legal_moves()) == (1, "offer", ["pass", "pile"])


def test_it_does_not_let_the_non_dealer_draw_from_the_stock_before_the_offer():
    with pytest.raises(IllegalMove, match="must_take_or_pass"):
        a_hand().play("stock")


def test_it_offers_the_upcard_to_the_dealer_after_a_pass():
    hand = play(a_hand(), "pass")
    assert (hand.to_move, hand.legal_moves()) == (0, ["pass", "pile"])


def test_it_makes_the_non_dealer_draw_from_the_stock_when_both_pass():
    hand = play(a_hand(), "pass", "pass")
    assert (hand.to_move, hand.phase, hand.legal_moves()) == (1, "draw", ["stock"])
    with pytest.raises(IllegalMove, match="must_draw_from_stock"):
        hand.play("pile")


def test_it_lets_the_dealer_take_the_upcard_then_play_goes_on_from_the_non_dealer():
    hand = play(a_hand(), "pass", "pile")
    assert (hand.to_move, hand.phase) == (0, "discard")
    play(hand, "discard QD")
    assert (hand.to_move, hand.phase, hand.legal_moves()[:2]) == (1, "draw", ["pile", "stock"])


def test_it_gives_the_turn_to_the_dealer_after_the_non_dealer_takes_the_upcard():
    hand = play(a_hand(), "pile", "discard KC")
    assert (hand.to_move, hand.phase, hand.view(0)["discard_top"]) == (0, "draw", "KC")


def test_it_forbids_discarding_the_card_just_taken_from_the_pile():
    hand = play(a_hand(), "pile")
    assert "discard 2C" not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="card_just_taken"):
        hand.play("discard 2C")
    with pytest.raises(IllegalMove, match="card_just_taken"):
        hand.play("knock 2C")


def test_it_allows_discarding_the_pile_card_on_a_later_turn():
    hand = play(a_hand(), "pile", "discard 4H", "stock", "discard 9C", "stock")
    assert "discard 2C" in hand.legal_moves()


def test_it_allows_a_stock_card_to_be_discarded_at_once():
    hand = play(a_hand(), "pass", "pass", "stock")
    assert "discard 9C" in hand.legal_moves()


def test_it_makes_a_player_draw_before_discarding():
    with pytest.raises(IllegalMove, match="must_draw_first"):
        play(a_hand(), "pass", "pass", "discard KC")


def test_it_allows_one_draw_a_turn():
    with pytest.raises(IllegalMove, match="already_drew"):
        play(a_hand(), "pass", "pass", "stock", "stock")


@pytest.mark.parametrize(
    ("move", "code"),
    [("discard 9S", "card_not_held"), ("discard XX", "unknown_move"), ("fold", "unknown_move"),
     ("discard  KC", "unknown_move"), (None, "unknown_move"), ("pass", "already_drew")],
)
def test_it_rejects_an_illegal_move_and_changes_nothing(move, code):
    hand = play(a_hand(), "pass", "pass", "stock")
    before = json.dumps([hand.view(0), hand.view(1)])
    with pytest.raises(IllegalMove) as error:
        hand.play(move)
    assert error.value.code == code and isinstance(error.value, ValueError)
    assert json.dumps([hand.view(0), hand.view(1)]) == before


def test_it_rejects_a_move_out_of_turn():
    with pytest.raises(IllegalMove, match="not_your_turn"):
        a_hand().play("pile", seat=0)


def test_it_lets_a_player_knock_with_ten_or_less():
    hand = play(a_hand(), "pile")
    assert "knock KC" in hand.legal_moves()


def test_it_rejects_a_knock_over_the_limit():
    hand = play(a_hand(), "pass", "pass", "stock")  # 9C: deadwood 19 after any discard but KC/9C
    assert "knock 9C" in hand.legal_moves() and "knock AS" not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="over_knock_limit"):
        hand.play("knock AS")


def test_it_never_forces_a_knock_or_gin():
    hand = play(deal("AS 2S 3S 4S 7C 7D 7S 9D TD JD", DEFENDER, upcard="KC"), "pile")
    assert "discard KC" not in hand.legal_moves()  # the upcard may not go back at once
    play(hand, "discard AS")
    assert hand.result is None


def test_it_lets_only_gin_knock_in_straight_gin():
    hand = play(a_hand(straight=True), "pile")
    assert hand.knock_limit == 0
    with pytest.raises(IllegalMove, match="over_knock_limit"):
        hand.play("knock KC")


def test_it_lets_gin_knock_in_straight_gin():
    hand = play(deal("AS 2S 3S 4S 7C 7D 7S 9D TD KH", DEFENDER, upcard="JD", options=Options(straight=True)), "pile")
    assert [move for move in hand.legal_moves() if move.startswith("knock")] == ["knock KH"]


def test_it_sets_the_oklahoma_limit_to_the_first_upcard_for_the_whole_hand():
    hand = deal("AS 2S 3S 4H 5H 6H 8C 8D 8H 5S", NO_CLUBS, upcard="4C", stock="3C", options=Options(oklahoma=True))
    play(hand, "pile")  # taking the upcard does not change the limit
    assert hand.knock_limit == 4
    assert "knock 5S" in hand.legal_moves()  # leaves 4C: 4
    play(hand, "discard 5S", "stock", "discard 3C", "stock")
    assert hand.knock_limit == 4


def test_it_rejects_an_oklahoma_knock_over_the_upcard_value():
    hand = play(deal("AS 2S 3S 4H 5H 6H 8C 8D 8H 5S", NO_CLUBS, upcard="4C", stock="3C", options=Options(oklahoma=True)),
                "pass", "pass", "stock")
    with pytest.raises(IllegalMove, match="over_knock_limit"):
        hand.play("knock 3C")  # leaves 5S: 5


@pytest.mark.parametrize(("upcard", "limit"), [("AC", 0), ("2C", 2), ("9C", 9), ("TC", 10), ("JC", 10), ("KS", 10)])
def test_it_counts_the_oklahoma_upcard_with_faces_ten_and_an_ace_as_gin_only(upcard, limit):
    assert deal(KNOCKER, DEFENDER, upcard=upcard, options=Options(oklahoma=True)).knock_limit == limit


def test_it_lets_only_gin_knock_after_an_oklahoma_ace_upcard():
    hand = play(deal("AS 2S 3S 4H 5H 6H 8C 8D 8H 2C", DEFENDER, upcard="AC", options=Options(oklahoma=True)), "pile")
    assert not [move for move in hand.legal_moves() if move.startswith("knock")]  # AC + 2C: 3
    with pytest.raises(IllegalMove, match="over_knock_limit"):
        hand.play("knock 2C")  # would leave 1


def test_it_lets_only_gin_knock_with_both_straight_and_oklahoma():
    assert deal(KNOCKER, DEFENDER, upcard="KS", options=Options(straight=True, oklahoma=True)).knock_limit == 0


def test_it_ends_a_hand_at_the_knock():
    hand = play(a_hand(), "pile", "knock KC")
    assert (hand.to_move, hand.phase, hand.legal_moves()) == (None, "over", [])
    with pytest.raises(IllegalMove, match="hand_over"):
        hand.play("stock")


def test_it_rejects_a_deck_that_is_not_52_different_cards():
    deck = deck_for(KNOCKER, DEFENDER, "2C")
    with pytest.raises(ValueError):
        new_hand(Options(), 0, deck=deck[:51] + deck[:1])


def test_it_finds_a_knock_that_a_tie_between_groupings_of_eleven_cards_could_hide():
    # Aces with 3H-4H-5H, or aces with the 4s, both leave 15 of the 11 cards. Only the second
    # shows that throwing 5H leaves 10.
    hand = deal("AC 3C 4C AD 2D 4D AH 3H 4H 2S", "9S TS JS QD KD 7H 9H 6D 8C JC", upcard="KS", stock="5H")
    play(hand, "pass", "pass", "stock")
    assert "knock 5H" in hand.legal_moves() and hand.view(1)["knocks"] == {"5H": 10}
