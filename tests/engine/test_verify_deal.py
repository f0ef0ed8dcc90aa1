"""docs/verify_deal.py, the standalone verifier: an honest match checks out, tampering names the hand."""

import functools
import http.server
import importlib.util
import json
import threading
from pathlib import Path

import pytest

from games.engine import SINGLE_HAND, Deal, Match, Options
from games.engine.deal import new_share

from .helpers import draw_and_discard_until
from .test_match import won_hand

VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"


def verifier():
    spec = importlib.util.spec_from_file_location("verify_deal", VERIFIER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fresh_deal():
    return Deal(new_share(), (new_share(), new_share()))


def two_hands():
    """A Hollywood match's first hand (its dealer drawn), played to the two-card draw, and the next."""
    match = Match(Options(), first_dealer=None, deal=fresh_deal())
    draw_and_discard_until(match, stock_left=2)
    match.next_hand(deal=fresh_deal())
    return [{"number": number, **hand.to_dict()} for number, hand in enumerate(match.hands, 1)]


def reshuffled_hand():
    match = Match(Options(), scoring=SINGLE_HAND.name, deal=fresh_deal())
    draw_and_discard_until(match, stock_left=0)
    match.play("stock")
    return {"number": 1, **match.hand.to_dict()}


def written(tmp_path, hands):
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"hands": hands}))
    return str(path)


def test_it_passes_every_hand_of_an_honest_match(tmp_path, capsys):
    hands = two_hands() + [reshuffled_hand() | {"number": 3}]
    assert verifier().main(written(tmp_path, hands)) == 0
    assert capsys.readouterr().out.strip() == "all 3 hands check out"


def tampered(hand, what):
    deal = dict(hand["deal"])
    if what == "seed":
        deal["seed"] = new_share()
    elif what == "contribution":
        deal["contributions"] = [deal["contributions"][0], new_share()]
    elif what == "commitment":
        deal["commitment"] = "0" * 64
    elif what == "dealer":
        return hand | {"dealer": 1 - hand["dealer"]}
    elif what == "deck":
        return hand | {"deck": hand["deck"][1:2] + hand["deck"][:1] + hand["deck"][2:]}
    return hand | {"deal": deal}


@pytest.mark.parametrize("what", ["seed", "contribution", "commitment", "deck", "dealer"])
def test_it_fails_naming_the_hand_whose_deal_was_tampered_with(tmp_path, capsys, what):
    first, second = two_hands()
    hands = [tampered(first, what), second] if what == "dealer" else [first, tampered(second, what)]
    assert verifier().main(written(tmp_path, hands)) == 1
    report = capsys.readouterr().out.strip().splitlines()
    assert report and all(line.startswith("hand 1: " if what == "dealer" else "hand 2: ") for line in report)


def test_it_fails_naming_a_reshuffle_that_does_not_follow(tmp_path, capsys):
    hand = reshuffled_hand()
    stock = hand["reshuffles"][0]
    hand["reshuffles"] = [stock[1:2] + stock[:1] + stock[2:]]
    assert verifier().main(written(tmp_path, [hand])) == 1
    assert capsys.readouterr().out.strip() == "hand 1: reshuffle 1 does not follow from the seed and the contributions"


def test_it_fails_a_hand_dealt_without_a_recorded_deal(tmp_path, capsys):
    assert verifier().main(written(tmp_path, [{"number": 1, **won_hand(0, 1)}])) == 1
    assert capsys.readouterr().out.strip() == "hand 1: no deal recorded: it cannot be checked"


def test_it_reports_a_malformed_seed_rather_than_crash(tmp_path, capsys):
    hand = two_hands()[0]
    hand["deal"] = hand["deal"] | {"seed": "not hex"}
    assert verifier().main(written(tmp_path, [hand])) == 1
    assert capsys.readouterr().out.startswith("hand 1: malformed")


def test_it_reads_the_match_from_an_address_as_well(tmp_path, capsys):
    written(tmp_path, two_hands())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            assert verifier().main(f"http://127.0.0.1:{server.server_port}/match.json") == 0
        finally:
            server.shutdown()
    assert capsys.readouterr().out.strip() == "all 2 hands check out"
