"""The showdown (docs/rules.md, "A hand", 5): the knocker's melds, lay-offs, and the score."""

import json

from .helpers import deal, play


def knock(knocker, defender, upcard, discard):
    """Seat 1 (the non-dealer) takes the upcard and knocks with `discard`; returns the result."""
    return play(deal(knocker, defender, upcard=upcard), "pile", f"knock {discard}").result


def layoffs(result, seat=0):
    return [layoff["card"] for layoff in result.to_dict()["players"][seat]["layoffs"]]


def test_it_scores_a_knock_as_the_difference_in_deadwood():
    result = knock("AS 2S 3S 4H 5H 6H 8C 8D 8H KC", "9S TS JS 4C 5C 6C QD KD 9H 2H", upcard="2C", discard="KC")
    assert (result.winner, result.kind, result.points) == (1, "knock", 31 - 2)
    assert result.to_dict()["players"][1]["deadwood"] == ["2C"] and result.to_dict()["players"][0]["deadwood_points"] == 31


def test_it_lays_off_at_both_ends_of_a_run():
    result = knock("AS 2S 3S 4H 5H 6H 8C 8D 8H KC", "9S TS JS 4C 5C 6C QD KD 7H 3H", upcard="2C", discard="KC")
    assert sorted(layoffs(result)) == ["3H", "7H"]
    assert result.to_dict()["players"][0]["deadwood_points"] == 20 and result.points == 18
    run = result.to_dict()["players"][1]["melds"].index(["4H", "5H", "6H"])
    assert {layoff["meld"] for layoff in result.to_dict()["players"][0]["layoffs"]} == {run}


def test_it_lays_off_one_card_after_another_along_a_run():
    result = knock("5S 6S 7S 2D 3D 4D JC QC KC AH", "8S 9S KD KH 4C 5C 6C 7C 9H TH", upcard="2H", discard="AH")
    assert layoffs(result) == ["8S", "9S"]
    assert (result.to_dict()["players"][0]["deadwood_points"], result.points) == (39, 37)


def test_it_lays_off_the_fourth_card_of_a_set():
    result = knock("7C 7D 7H 2D 3D 4D JC QC KC AH", "7S 9S KD KH 4C 5C 6C 8H 9H TH", upcard="2H", discard="AH")
    assert layoffs(result) == ["7S"]
    assert result.to_dict()["players"][0]["deadwood_points"] == 29


def test_it_cannot_lay_off_onto_a_set_of_four():
    result = knock("7C 7D 7H 7S 3D 4D 5D AC 2C KC", "6S 8S KD KH 4C 5C 6C 8H 9H TH", upcard="AH", discard="KC")
    assert layoffs(result) == []


def test_it_breaks_the_defenders_own_meld_when_that_leaves_less():
    # Keeping the run 8S-TS leaves 8H 8D; laying off TS and 9S frees 8S for a set of eights.
    result = knock("JS QS KS 2D 3D 4D 6C 7C 8C AH", "8S 9S TS 8H 8D 4H 6H QH KC KD", upcard="2H", discard="AH")
    assert sorted(layoffs(result)) == ["9S", "TS"]
    assert ["8D", "8H", "8S"] in result.to_dict()["players"][0]["melds"]
    assert (result.to_dict()["players"][0]["deadwood_points"], result.points) == (40, 38)


def test_it_arranges_the_knocker_to_leave_the_defender_the_most_deadwood():
    # Two arrangements leave the knocker 9: runs 3S-5S or 3H-5H. With 3S-5S the defender could
    # lay off 6S 7S; the site picks 3H-5H, which leaves the defender 30 instead of 17.
    result = knock("5C 5D 5H 5S 3S 4S 3H 4H AC 9C", "6S 7S KC KD KH QS JS TS 9D 8C", upcard="AD", discard="9C")
    assert ["3H", "4H", "5H"] in result.to_dict()["players"][1]["melds"]
    assert layoffs(result) == []
    assert (result.to_dict()["players"][1]["deadwood_points"], result.points) == (9, 21)


def test_it_scores_gin_as_25_plus_the_defenders_deadwood_without_lay_offs():
    result = knock("AS 2S 3S 4S 7C 7D 7H 9D TD KH", "5S 7S QC QD QH 2H 3H 4H 6C 8C", upcard="JD", discard="KH")
    assert (result.winner, result.kind, result.points) == (1, "gin", 25 + 26)
    assert layoffs(result) == [] and result.to_dict()["players"][0]["deadwood"] == ["6C", "8C", "5S", "7S"]


def test_it_never_undercuts_gin():
    result = knock("AS 2S 3S 4S 7C 7D 7S 9D TD KH", "5H 6H 7H QC QD QH 2C 3C 4C 5C", upcard="JD", discard="KH")
    assert (result.winner, result.kind, result.points) == (1, "gin", 25)


def test_it_gives_the_defender_an_undercut_when_the_defender_has_less():
    result = knock("AS 2S 3S 4H 5H 6H 9C 9D 9H 7C", "JS QS KS 3C 3D 3H TC TD TH 2C", upcard="7D", discard="7C")
    assert (result.winner, result.kind, result.points) == (0, "undercut", 7 - 2 + 25)


def test_it_gives_the_defender_an_undercut_on_equal_deadwood():
    result = knock("AS 2S 3S 4H 5H 6H 9C 9D 9H KC", "JS QS KS 3C 3D 3H TC TD TH 7S", upcard="7D", discard="KC")
    assert (result.winner, result.kind, result.points) == (0, "undercut", 25)


def test_it_has_no_big_gin_a_knock_always_names_a_discard():
    hand = play(deal("AS 2S 3S 4S 7C 7D 7S 9D TD JD", "5H 6H 7H QC QD QH 2C 3C 4C 5C", upcard="8D"), "pile")
    knocks = [move for move in hand.legal_moves() if move.startswith("knock")]
    assert "knock" not in knocks and "knock AS" in knocks
    assert play(hand, "knock AS").result.points == 25


def test_it_shows_both_hands_once_the_hand_is_over():
    hand = play(deal("AS 2S 3S 4H 5H 6H 8C 8D 8H KC", "9S TS JS 4C 5C 6C QD KD 7H 3H", upcard="2C"), "pile", "knock KC")
    view = hand.view(0)
    assert view["result"]["knock_card"] == "KC" and view["result"]["knocker"] == 1
    assert sorted(view["hands"][1]) == sorted("AS 2S 3S 4H 5H 6H 8C 8D 8H 2C".split())
    json.dumps(view)


def test_it_lays_off_the_fourth_card_of_a_set_without_clubs():
    result = knock("9D 9H 9S 2D 3D 4D JC QC KC AH", "9C 7S KD KH 4C 5C 6C 8H TH 2S", upcard="2H", discard="AH")
    assert layoffs(result) == ["9C"]
