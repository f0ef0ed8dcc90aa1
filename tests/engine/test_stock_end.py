"""The end of the stock (docs/rules.md, "A hand", 6): the two-card rule and the reshuffle."""

from games.engine import Options

from .helpers import deal, draw_and_discard_until, play

NON_DEALER = "AS 2S 3S 4H 5H 6H 8C 8D 8H KC"
DEALER = "9S TS JS 4C 5C 6C QD KD 7H 3H"


def two_card_hand(bottom=""):
    return deal(NON_DEALER, DEALER, upcard="QC", bottom=bottom, options=Options(stock_end="two_cards"))


def reshuffle_hand():
    return deal(NON_DEALER, DEALER, upcard="QC", options=Options(stock_end="reshuffle"))


def test_it_ends_the_hand_with_no_points_when_a_discard_leaves_two_cards():
    hand = draw_and_discard_until(two_card_hand(), stock_left=3)
    play(hand, "stock")
    assert len(hand.stock) == 2 and hand.result is None
    hand.play(hand.legal_moves()[0])
    assert (hand.result.winner, hand.result.points, hand.result.kind) == (None, 0, "draw")
    assert hand.view(0)["phase"] == "over" and len(hand.result.to_dict()["players"][1]["melds"]) == 3


def test_it_never_lets_the_last_two_cards_be_drawn():
    hand = draw_and_discard_until(two_card_hand(), stock_left=3)
    play(hand, "stock")
    play(hand, hand.legal_moves()[0])
    assert hand.view(0)["stock_count"] == 2 and hand.legal_moves() == []


def test_it_lets_the_player_who_drew_the_third_last_card_knock():
    # The non-dealer draws the 1st, 3rd, ... 29th stock card; the 29th is the third-last.
    hand = draw_and_discard_until(two_card_hand(bottom="2C JH QH"), stock_left=3)
    assert hand.to_move == 1
    play(hand, "stock")
    assert "knock KC" in hand.legal_moves()
    play(hand, "knock KC")
    assert (hand.result.kind, hand.result.winner) == ("knock", 1)


def test_it_does_not_end_the_hand_at_two_cards_when_reshuffling():
    hand = draw_and_discard_until(reshuffle_hand(), stock_left=2)
    assert hand.result is None and "stock" in hand.legal_moves()


def test_it_shuffles_the_pile_except_its_top_card_into_a_new_stock():
    hand = draw_and_discard_until(reshuffle_hand(), stock_left=0)
    pile = [str(card) for card in hand.pile]
    play(hand, "stock")
    assert hand.view(0)["discard_top"] == pile[-1] and hand.view(0)["discard_count"] == 1
    assert hand.view(0)["stock_count"] == len(pile) - 2
    assert sorted(str(card) for card in hand.reshuffles[0]) == sorted(pile[:-1])


def test_it_goes_on_round_the_deck_again_rather_than_end_without_a_winner():
    hand = draw_and_discard_until(reshuffle_hand(), stock_left=0)
    play(hand, "stock")
    play(hand, hand.legal_moves()[0])
    draw_and_discard_until(hand, stock_left=0)
    assert hand.result is None and len(hand.reshuffles) == 1 and "stock" in hand.legal_moves()
