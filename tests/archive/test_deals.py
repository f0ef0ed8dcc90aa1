"""Each archived hand's deal: in the JSON for docs/verify_deal.py, and on the match page."""

import dataclasses
import json
import random

import pytest

from games.archive.simulate import play_match
from games.engine import SINGLE_HAND
from tests.archive.helpers import record_engine_match
from tests.engine.test_verify_deal import verifier


@pytest.fixture
def dealt_match(ana, ben):
    """A Hollywood match whose every hand was dealt from a Deal, recorded as live play records it."""
    return record_engine_match((ana, ben), play_match("hollywood", 100, rng=random.Random(5), dealt=True), code="dealt")


def match_json(client, archived):
    return client.get(f"/api/matches/{archived.public_id}").json()


def test_it_gives_each_hands_deal_deck_and_reshuffles_in_the_json(client, dealt_match):
    hands = match_json(client, dealt_match)["hands"]
    assert len(hands) == dealt_match.hand_count > 1
    for hand in hands:
        assert set(hand["deal"]) >= {"commitment", "seed", "contributions", "supplied"}
        assert len(hand["deck"]) == 52 and hand["reshuffles"] == []


def test_the_verifier_passes_every_hand_of_the_archived_match(client, dealt_match, tmp_path, capsys):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_json(client, dealt_match)))
    assert verifier().main(str(path)) == 0
    assert capsys.readouterr().out.strip() == f"all {dealt_match.hand_count} hands check out"


def test_the_verifier_passes_an_archived_single_hand_that_reshuffled(client, ana, ben, tmp_path):
    # Seed 108: the first of the seeded Straight Gin single hands dealt so that goes round the stock.
    match = play_match(SINGLE_HAND.name, straight=True, rng=random.Random(108), dealt=True)
    archived = record_engine_match((ana, ben), match, code="reshuffled")
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_json(client, archived)))
    assert match_json(client, archived)["hands"][0]["reshuffles"] and verifier().main(str(path)) == 0


def test_the_verifier_names_the_archived_hand_whose_deck_was_changed(client, dealt_match, tmp_path, capsys):
    data = match_json(client, dealt_match)
    deck = data["hands"][1]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))
    assert verifier().main(str(path)) == 1
    assert capsys.readouterr().out.strip() == "hand 2: the deck does not follow from the seed and the contributions"


def test_it_shows_each_hands_commitment_seed_contributions_and_deck_on_the_match_page(client, dealt_match):
    html = client.get(f"/en/archive/matches/{dealt_match.public_id}/").content.decode()
    for hand in dealt_match.hands.all():
        assert hand.deal["commitment"] in html and hand.deal["seed"] in html
        assert all(share in html for share in hand.deal["contributions"])
        assert " ".join(hand.deck) in html
    assert html.count('class="archive-deal"') == dealt_match.hand_count
    assert 'href="/en/fairness/"' in html


def test_it_says_on_the_match_page_which_share_the_server_supplied(client, ana, ben):
    match = play_match("hollywood", 100, rng=random.Random(5), dealt=True)
    first = match.hands[0]
    first.deal = dataclasses.replace(first.deal, supplied=(False, True))
    archived = record_engine_match((ana, ben), match, code="supplied")
    html = client.get(f"/en/archive/matches/{archived.public_id}/").content.decode()
    assert html.count("(none came: the server supplied it)") == 1
    assert match_json(client, archived)["hands"][0]["deal"]["supplied"] == [False, True]


def test_it_shows_no_deal_for_a_hand_dealt_before_deals_were_kept(client, engine_match):
    html = client.get(f"/en/archive/matches/{engine_match.public_id}/").content.decode()
    assert 'class="archive-deal"' not in html
    assert all(hand["deal"] is None for hand in match_json(client, engine_match)["hands"])
