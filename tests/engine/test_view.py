"""What a seat may see: view(seat)."""

import json
import re

from games.engine import Options

from .helpers import deal, draw_and_discard_until, play

CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")
NON_DEALER = "AS 2S 3S 4H 5H 6H 8C 8D 8H KC"
DEALER = "9S TS JS 4C 5C 6C QD KD 7H 3H"


def a_hand():
    return deal(NON_DEALER, DEALER, upcard="2C", stock="9C JC")


def codes_seen(view):
    return set(CODE.findall(json.dumps(view)))


def hidden_from(hand, seat):
    """The opponent's unseen cards and the stock."""
    opponent = hand.view(1 - seat)["hand"]
    known = set(hand.view(seat)["opponent_known"])
    return (set(opponent) - known) | {str(card) for card in hand.stock}


def test_it_never_shows_the_opponents_cards_or_the_stock_before_the_showdown():
    hand = a_hand()
    for moves in (["pass"], ["pass", "stock"], ["discard 9C", "stock"], ["discard JC"]):
        play(hand, *moves)
        for seat in (0, 1):
            assert not codes_seen(hand.view(seat)) & hidden_from(hand, seat)


def test_it_shows_the_cards_the_opponent_was_seen_to_take_from_the_pile():
    hand = play(a_hand(), "pile")
    assert hand.view(0)["opponent_known"] == ["2C"] and "2C" not in hidden_from(hand, 0)
    play(hand, "discard KC", "stock", "discard 9C", "stock", "discard 2C")
    assert hand.view(0)["opponent_known"] == []


def test_it_tells_the_player_to_move_what_each_discard_would_leave():
    view = play(a_hand(), "pile").view(1)
    assert view["phase"] == "discard" and view["cannot_discard"] == "2C"
    assert view["discard_deadwood"]["KC"] == 2 and view["discard_deadwood"]["AS"] == 17
    assert "2C" not in view["discard_deadwood"]
    assert "knock KC" in view["legal_moves"] and view["knock_limit"] == 10


def test_it_gives_no_moves_to_the_player_not_to_move():
    view = a_hand().view(0)
    assert view["legal_moves"] == [] and view["discard_deadwood"] == {} and view["to_move"] == 1


def test_it_groups_the_hand_into_its_best_melds():
    view = a_hand().view(1)
    assert view["melds"] == [["8C", "8D", "8H"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]]
    assert (view["deadwood"], view["deadwood_points"]) == (["KC"], 10)
    assert view["hand"][-1] == "KC"


def test_it_shows_both_hands_and_the_showdown_once_over():
    hand = play(a_hand(), "pile", "knock KC")
    view = hand.view(0)
    assert view["phase"] == "over" and view["result"]["kind"] == "knock"
    assert sorted(view["hands"][1]) == sorted("AS 2S 3S 4H 5H 6H 8C 8D 8H 2C".split())
    assert view["result"]["players"][0]["layoffs"] == [{"card": "3H", "meld": 1}, {"card": "7H", "meld": 1}]


def test_it_keeps_every_view_json_serialisable():
    hand = draw_and_discard_until(deal(NON_DEALER, DEALER, upcard="2C", options=Options(oklahoma=True)), 2)
    assert json.loads(json.dumps(hand.view(0)))["result"]["kind"] == "draw"


def test_it_lists_each_legal_knock_with_the_deadwood_it_shows():
    view = play(a_hand(), "pile").view(1)
    assert view["knocks"] == {"KC": 2}
    assert {move.split()[1] for move in view["legal_moves"] if move.startswith("knock")} == set(view["knocks"])


def test_it_shows_a_spectator_no_hand_at_all_before_the_end():
    hand = play(a_hand(), "pile")
    view = hand.view(None)
    assert view["hand"] == [] and view["legal_moves"] == [] and view["counts"] == [10, 11]
    assert view["known"] == [[], ["2C"]]
    assert not codes_seen(view) & (hidden_from(hand, 0) | hidden_from(hand, 1))
