"""The expert knocks short of gin only while the opponent's hand is still raw."""

from games.computer.knowledge import read
from games.computer.players import knock_ceiling

from .helpers import play_match


def knock_chances(seed):
    """(opponent's draws, the move) at each of the expert's turns where a knock short of gin was legal."""
    found = []

    def watch(view, move):
        hand_view = view["hand_view"]
        knocks = hand_view["knocks"]
        if knocks and min(knocks.values()) > 0 and len(hand_view["legal_moves"]) > 1 and view["hand_view"]["seat"] == 0:
            found.append((read(hand_view).opponent_turns, min(knocks.values()), move))

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
    for turns, least, move in chances:
        knowledge = type("Seen", (), {"opponent_turns": turns})()
        if least > knock_ceiling(knowledge):
            assert not move.startswith("knock")
