"""The expert knocks short of gin only while the opponent's hand is still raw."""

import copy
import functools
import random

from games.computer import choose_move
from games.computer.knowledge import read
from games.computer.players import (
    FAST_HOLD_BELOW, FINISH_CEILING, FINISH_CEILING_AGAINST_KNOCKER, holds_knockable, knock_ceiling, knocks_at_once,
    schedule_for,
)

from .helpers import play_match


def knock_chances(seed):
    """(the expert's ceiling, the least knock, the move) at each of its turns where a knock
    short of gin was legal."""
    found = []

    def watch(view, move):
        hand_view = view["hand_view"]
        knocks = hand_view["knocks"]
        if knocks and min(knocks.values()) > 0 and len(hand_view["legal_moves"]) > 1 and view["hand_view"]["seat"] == 0:
            knowledge = read(hand_view)
            found.append((knock_ceiling(knowledge, schedule_for(view, knowledge)), min(knocks.values()), move))

    play_match(("expert", "club"), seed, target=60, on_move=watch)
    return found


def test_it_knocks_with_any_legal_deadwood_in_the_first_turns_and_only_with_gin_late():
    knowledge = type("Seen", (), {})()
    knowledge.opponent_turns = 1
    early = knock_ceiling(knowledge)
    knowledge.opponent_turns = 20
    assert (early, knock_ceiling(knowledge)) == (10, 0)
    knowledge.opponent_turns = 4
    assert knock_ceiling(knowledge) == 0


def test_it_never_knocks_above_its_ceiling_in_a_played_match():
    chances = [chance for seed in range(3) for chance in knock_chances(seed)]
    assert chances
    for ceiling, least, move in chances:
        if least > ceiling:
            assert not move.startswith("knock")


def _showdown(knocker, defender_codes, seat_of_defender):
    """A finished hand's result as the view lists it: the defender's cards shown as deadwood."""
    players = [None, None]
    players[seat_of_defender] = {"melds": [], "layoffs": [], "deadwood": defender_codes, "deadwood_points": 0}
    players[1 - seat_of_defender] = {"melds": [], "layoffs": [], "deadwood": [], "deadwood_points": 0}
    return {"knocker": knocker, "kind": "knock", "players": players}


HELD_NEAR_GIN = ["AC", "2C", "3C", "4D", "4H", "4S", "9C", "9D", "9H", "2D"]  # 2 deadwood
RAW = ["AC", "3D", "5H", "7S", "9C", "JD", "QH", "KS", "2S", "6C"]


def test_it_reads_an_opponent_seen_at_a_showdown_holding_a_hand_it_could_have_knocked_with():
    held = {"results": [_showdown(knocker=0, defender_codes=HELD_NEAR_GIN, seat_of_defender=1)]}
    raw = {"results": [_showdown(knocker=0, defender_codes=RAW, seat_of_defender=1)]}
    own_knock = {"results": [_showdown(knocker=1, defender_codes=HELD_NEAR_GIN, seat_of_defender=1)]}
    assert holds_knockable(held, 1, 10)
    assert not holds_knockable(raw, 1, 10)
    assert not holds_knockable(own_knock, 1, 10)


def _near_the_target(points, results=()):
    sheet = {"target": 100, "games": [{"points": points, "winner": None}]}
    return {"sheet": sheet, "results": list(results)}


def test_close_to_the_target_it_also_knocks_late_with_little_deadwood_and_more_against_a_player_who_knocks_at_once():
    knowledge = type("Seen", (), {"seat": 0, "knock_limit": 10, "opponent_turns": 9})()
    far = schedule_for(_near_the_target([60, 40]), knowledge)
    against_a_knocker = schedule_for(_near_the_target([95, 40]), knowledge)
    holder = [_showdown(knocker=0, defender_codes=HELD_NEAR_GIN, seat_of_defender=1)]
    against_a_holder = schedule_for(_near_the_target([95, 40], holder), knowledge)
    assert knock_ceiling(knowledge, far) == 0
    assert knock_ceiling(knowledge, against_a_holder) == FINISH_CEILING
    assert knock_ceiling(knowledge, against_a_knocker) == FINISH_CEILING_AGAINST_KNOCKER


def test_it_reads_a_fast_knocker_from_more_knocks_short_of_gin_than_gins_and_no_hand_held():
    knock = {"knocker": 1, "kind": "knock", "players": [
        {"melds": [], "layoffs": [], "deadwood": RAW, "deadwood_points": 60},
        {"melds": [], "layoffs": [], "deadwood": ["2S"], "deadwood_points": 2},
    ]}
    gin = {**knock, "kind": "gin", "players": [knock["players"][0], {**knock["players"][1], "deadwood_points": 0}]}
    held = _showdown(knocker=0, defender_codes=HELD_NEAR_GIN, seat_of_defender=1)
    assert knocks_at_once({"results": [knock]}, 1, 10)
    assert knocks_at_once({"results": [knock, gin, knock]}, 1, 10)
    assert not knocks_at_once({"results": []}, 1, 10)
    assert not knocks_at_once({"results": [gin]}, 1, 10)
    assert not knocks_at_once({"results": [knock, gin]}, 1, 10)
    assert not knocks_at_once({"results": [knock, held]}, 1, 10)
    assert not knocks_at_once({"results": [knock]}, 0, 10)


def _with_points(view, points):
    """The view with the game's points set, so the knock's stakes are known."""
    view = copy.deepcopy(view)
    view["sheet"]["games"][0]["points"] = points
    return view


@functools.cache
def made_hand_chances(seeds=tuple(range(6))):
    """Views where the expert, early in a hand against a player read as knocking at once, could
    knock short of gin within its ceiling: (the least knock's deadwood, the view). Played once
    for the tests that read them; they change only copies (_with_points). The matches only find
    the views, so they think at a tenth of the budget; the tests judge each view at the full one."""
    found = []

    def watch(view, move):
        hand_view = view["hand_view"]
        knocks = hand_view["knocks"]
        if hand_view["seat"] != 0 or not knocks or min(knocks.values()) == 0:
            return
        knowledge = read(hand_view)
        # The ceiling far from the target, where the tests set the points (_with_points [0, 0]):
        # a late view near the target knocks by the finishing schedule, which [0, 0] takes away.
        ceiling = knock_ceiling(knowledge, schedule_for(_with_points(view, [0, 0]), knowledge))
        if min(knocks.values()) <= ceiling and knocks_at_once(view, 1, knowledge.knock_limit):
            found.append((min(knocks.values()), view))

    for seed in seeds:
        play_match(("expert", "club"), seed, target=100, on_move=watch, budget_ms=10)
    return found


def test_against_a_player_who_knocks_at_once_it_holds_a_made_hand_for_gin_unless_the_knock_ends_the_game():
    chances = made_hand_chances()
    made = [view for least, view in chances if least <= FAST_HOLD_BELOW]
    raw = [view for least, view in chances if least > FAST_HOLD_BELOW]
    assert made and raw
    for view in made:
        # Far from the target the made hand is held; one point short, the knock ends the game.
        assert not choose_move(_with_points(view, [0, 0]), "expert", random.Random(1)).startswith("knock")
        assert choose_move(_with_points(view, [99, 0]), "expert", random.Random(1)).startswith("knock")
    for view in raw:
        assert choose_move(_with_points(view, [0, 0]), "expert", random.Random(1)).startswith("knock")


def test_under_a_lower_knock_limit_it_still_knocks_a_made_hand_against_a_player_who_knocks_at_once():
    # Under Oklahoma's lower limits every knock is a made hand; the hold was measured at 10 only.
    low = [view for least, view in made_hand_chances() if least <= 5]
    assert low
    view = _with_points(low[0], [0, 0])
    view["hand_view"]["knock_limit"] = 5
    assert choose_move(view, "expert", random.Random(1)).startswith("knock")
