"""The expert knocks short of gin only while the opponent's hand is still raw, unless the
opponent has shown it knocks at once."""

from games.computer.knowledge import held_a_knock, read
from games.computer.players import PRESUME_HOLDING, knock_ceiling, opponent_holds

from .helpers import play_match


def knock_chances(seed):
    """(opponent's draws, the move) at each of the expert's turns where a knock short of gin was legal."""
    found = []

    def watch(view, move):
        hand_view = view["hand_view"]
        knocks = hand_view["knocks"]
        if knocks and min(knocks.values()) > 0 and len(hand_view["legal_moves"]) > 1 and view["hand_view"]["seat"] == 0:
            found.append((read(hand_view), opponent_holds(view), min(knocks.values()), move))

    play_match(("expert", "club"), seed, target=60, on_move=watch)
    return found


def test_it_knocks_with_any_legal_deadwood_in_the_first_turns_and_only_with_gin_late():
    knowledge = type("Seen", (), {})()
    knowledge.opponent_turns = 1
    early = knock_ceiling(knowledge)
    knowledge.opponent_turns = 20
    assert (early, knock_ceiling(knowledge)) == (10, 0)


def test_it_never_knocks_above_its_ceiling_in_a_played_match():
    chances = [chance for seed in range(3) for chance in knock_chances(seed)]
    assert chances
    for knowledge, holds, least, move in chances:
        if least > knock_ceiling(knowledge, holds):
            assert not move.startswith("knock")
    # The club knocks at once: once it has been seen at a showdown, the expert knocks at once too.
    assert {holds for _, holds, _, _ in chances} >= {False}


def test_it_knocks_at_once_against_an_opponent_that_never_held_a_knock():
    knowledge = type("Seen", (), {"opponent_turns": 20, "knock_limit": 10})()
    assert (knock_ceiling(knowledge, holds=True), knock_ceiling(knowledge, holds=False)) == (0, 10)


def _result(knocker, defender_cards):
    shown = {"melds": [], "layoffs": [], "deadwood": defender_cards, "deadwood_points": 0}
    return {"knocker": knocker, "kind": "knock", "winner": knocker, "points": 1, "players": [shown, shown]}


def test_a_showdown_tells_whether_the_opponent_holds_knockable_hands():
    low = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "7S", "7D", "2H"]  # deadwood 2
    high = ["KC", "QD", "JH", "TS", "9C", "8D", "KH", "QS", "JC", "TD"]
    assert held_a_knock([_result(0, low)], 0, 10)
    assert not held_a_knock([_result(0, high)], 0, 10)
    assert not held_a_knock([_result(1, low)], 0, 10)  # the opponent knocked: it told nothing
    view = {"hand_view": {"seat": 0, "knock_limit": 10}, "results": []}
    assert opponent_holds(view) == PRESUME_HOLDING
    view["results"] = [_result(0, high)]
    assert not opponent_holds(view)
