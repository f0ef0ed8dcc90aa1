"""A match (docs/rules.md, "A match"): dealers, scoring modes, and the end."""

import json
import random

import pytest

from games.engine import IllegalMove, Match, Options

from .helpers import deck_for, draw_and_discard_until

GIN = "AS 2S 3S 4S 7C 7D 7S 9D TD KH"  # with the upcard JD: gin by discarding KH
LOSER = "5H 6H 8H QC QD QH 2C 3C 4C 5C"  # 19 deadwood: gin scores 44


def won_hand(dealer, winner):
    """A saved hand that `winner` wins by gin at once, taking the upcard."""
    if winner == dealer:
        deck, moves = deck_for(LOSER, GIN, upcard="JD"), ["pass", "pile", "knock KH"]
    else:
        deck, moves = deck_for(GIN, LOSER, upcard="JD"), ["pile", "knock KH"]
    return {"dealer": dealer, "deck": deck, "moves": moves, "reshuffles": []}


def replayed(scoring, winners, first_dealer=0, options=None):
    """A match rebuilt from saved hands won, in turn, by these seats."""
    hands, dealer = [], first_dealer
    for winner in winners:
        hands.append(won_hand(dealer, winner))
        dealer = winner
    data = {"format": 1, "options": options or {"straight": False, "oklahoma": False}, "scoring": scoring,
            "target": 100, "first_dealer": first_dealer, "hands": hands}
    return Match.from_dict(data, rng=random.Random(5))


def test_it_lets_the_winner_deal_the_next_hand_and_the_other_play_first():
    match = replayed("hollywood", [1])
    match.next_hand()
    assert (match.hand.dealer, match.hand.to_move) == (1, 0)


def test_it_keeps_the_same_dealer_after_a_hand_with_no_winner():
    match = Match(Options(), scoring="game", first_dealer=1, rng=random.Random(2))
    draw_and_discard_until(match, stock_left=2)
    assert match.hand.result.kind == "draw" and match.results == [match.hand.result]
    match.next_hand()
    assert match.hand.dealer == 1 and len(match.results) == 1


def test_it_refuses_the_next_hand_before_this_one_is_over():
    with pytest.raises(IllegalMove, match="hand_not_over"):
        Match(Options(), rng=random.Random(1)).next_hand()


def test_it_lets_the_first_dealer_be_either_seat():
    assert Match(Options(), first_dealer=1, rng=random.Random(1)).hand.dealer == 1


def test_it_ends_a_single_hand_match_with_the_hands_winner_and_points():
    match = replayed("hand", [1])
    assert match.is_over and match.winner == 1 and match.sheet.totals == (0, 44)
    assert match.results[0].points == 44
    with pytest.raises(IllegalMove, match="match_over"):
        match.next_hand()


def test_it_reshuffles_in_single_hand_mode_whatever_the_options_say():
    assert Match(Options(stock_end="two_cards"), scoring="hand", rng=random.Random(1)).hand.options.stock_end == "reshuffle"


@pytest.mark.parametrize("scoring", ["game", "hollywood"])
def test_it_uses_the_two_card_rule_in_game_and_hollywood_whatever_the_options_say(scoring):
    match = Match(Options(stock_end="reshuffle"), scoring=scoring, rng=random.Random(1))
    assert match.hand.options.stock_end == "two_cards"


def test_it_plays_one_game_until_a_player_reaches_the_target():
    match = replayed("game", [1, 1])
    assert not match.is_over and match.sheet.games[0].points == (0, 88)
    match = replayed("game", [1, 1, 1])
    assert match.is_over and match.winner == 1
    assert match.sheet.games[0].bonus == (0, 200 + 3 * 25)


def test_it_scores_each_won_hand_on_the_hollywood_sheet():
    match = replayed("hollywood", [1, 0])
    assert [game.points for game in match.sheet.games] == [(44, 44), (0, 0), (0, 0)]


def test_it_goes_on_after_a_player_already_has_two_games():
    match = replayed("hollywood", [1, 1, 1, 1])
    assert [game.winner for game in match.sheet.games] == [1, 1, None]
    assert not match.is_over and match.winner is None
    match.next_hand()
    assert match.hand.dealer == 1


def test_it_ends_a_hollywood_match_when_all_three_games_are_finished():
    match = replayed("hollywood", [1, 1, 1, 1, 1])
    assert match.is_over and match.winner == 1 and len(match.results) == 5


@pytest.mark.parametrize("scoring", ["hand", "game", "hollywood"])
def test_it_combines_straight_gin_and_oklahoma_with_every_scoring_mode(scoring):
    assert Match(Options(straight=True), scoring=scoring, rng=random.Random(1)).hand.knock_limit == 0
    hand = Match(Options(oklahoma=True), scoring=scoring, rng=random.Random(1)).hand
    assert hand.knock_limit == Options(oklahoma=True).knock_limit(hand.pile[0])
    assert replayed(scoring, [1], options={"straight": True, "oklahoma": True}).results[0].kind == "gin"


def test_it_rejects_a_bad_scoring_mode():
    with pytest.raises(ValueError):
        Match(Options(), scoring="rubber")


def test_it_lets_chance_choose_the_first_dealer():
    dealers = {Match(Options(), first_dealer=None, rng=random.Random(seed)).hand.dealer for seed in range(20)}
    assert dealers == {0, 1}


def test_it_keeps_a_chosen_first_dealer_when_saved():
    match = Match(Options(), first_dealer=None, rng=random.Random(3))
    assert Match.from_json(match.to_json()).first_dealer == match.first_dealer


def test_it_shows_the_match_as_json_ready_data():
    view = replayed("hollywood", [1]).view(0)
    assert view["sheet"]["games"][0]["points"] == [0, 44] and view["can_deal"] and not view["is_over"]
    assert view["hand_view"]["result"]["kind"] == "gin" and json.loads(json.dumps(view))["hand_number"] == 1


def entered(match):
    return [row["games"] for row in match.sheet.rows]


def test_it_says_which_games_each_finished_hand_was_entered_in():
    match = replayed("hollywood", [1, 1, 1, 1, 1])
    assert entered(match) == [[0], [0, 1], [0, 1, 2], [1, 2], [2]]
    assert entered(Match.from_json(match.to_json())) == entered(match)
    assert entered(replayed("hand", [1])) == [[]]


def test_it_keeps_a_row_for_a_hand_with_no_winner_entered_in_no_game():
    match = Match(Options(), scoring="game", first_dealer=1, rng=random.Random(2))
    draw_and_discard_until(match, stock_left=2)
    assert match.sheet.rows == [{"hand": 1, "winner": None, "points": 0, "games": []}]


def test_it_keeps_a_row_for_a_win_that_only_finished_games_could_take():
    # Seat 1's three wins end game 1; seat 0's first win could only go there.
    match = replayed("hollywood", [1, 1, 1, 0, 0])
    rows = match.sheet.rows
    assert [row["hand"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[3] == {"hand": 4, "winner": 0, "points": 44, "games": []} and rows[4]["games"] == [1]
    assert match.sheet.wins == [2, 3]


def test_it_says_what_the_sheet_was_after_each_hand():
    match = replayed("hollywood", [1, 1, 1])
    assert [game.points for game in match.sheet_after(2).games] == [(0, 88), (0, 44), (0, 0)]
    assert match.sheet_after(3).to_dict() == match.sheet.to_dict()


def test_it_gives_a_single_hand_a_sheet_of_one_row_with_its_points():
    sheet = replayed("hand", [1]).sheet.to_dict()
    assert sheet["games"] == [] and sheet["hands"] == [{"hand": 1, "winner": 1, "points": 44, "games": []}]
    assert sheet["totals"] == [0, 44] and sheet["winner"] == 1 and sheet["is_over"]
