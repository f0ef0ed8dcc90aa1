"""The fast solver against the brute-force one in brute.py, on random and meld-rich hands."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Match, Options, best_melds, deadwood_points
from games.engine.cards import ALL_CARDS, mask_of
from games.engine.melds import discard_deadwoods
from games.engine.showdown import settle_knock

from . import brute
from .test_view import codes_seen, hidden_from

SOLVER = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHOWDOWN = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def deals(draw, size):
    """`size` different cards: from the whole deck, or from a few neighbouring ranks (meld-rich)."""
    low = draw(st.integers(0, 13))
    if low == 13:
        pool = list(ALL_CARDS)
    else:
        width = draw(st.integers(-(-size // 4), 7))
        pool = [card for card in ALL_CARDS if low <= card.rank < low + width]
    return draw(st.permutations(pool))[:size]


def is_meld(meld):
    ranks = sorted(card.rank for card in meld)
    if len({card.rank for card in meld}) == 1:
        return len(meld) in (3, 4)
    return len({card.suit for card in meld}) == 1 and len(meld) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


@SOLVER
@given(deals(10))
def test_it_finds_the_least_deadwood_of_ten_cards(cards):
    assert deadwood_points(cards) == brute.deadwood(cards)


@SOLVER
@given(deals(11))
def test_it_finds_the_least_deadwood_of_eleven_cards(cards):
    assert deadwood_points(cards) == brute.deadwood(cards)


@SOLVER
@given(deals(10))
def test_it_returns_disjoint_melds_with_that_least_deadwood(cards):
    melds, deadwood = best_melds(cards)
    used = [card for meld in melds for card in meld] + deadwood
    assert sorted(used) == sorted(cards) and all(is_meld(meld) for meld in melds)
    assert sum(card.value for card in deadwood) == deadwood_points(cards)


@SOLVER
@given(deals(11))
def test_it_finds_the_deadwood_left_after_every_discard(cards):
    after = discard_deadwoods(mask_of(cards))
    assert after == {card.index: brute.deadwood(set(cards) - {card}) for card in cards}


@SHOWDOWN
@given(deals(20))
def test_it_settles_a_showdown_as_the_brute_force_does(cards):
    knocker, defender = cards[:10], cards[10:]
    result = settle_knock(1, [mask_of(defender), mask_of(knocker)], "2C")
    winner, kind, points = brute.showdown(knocker, defender)
    assert (result.kind, result.points) == (kind, points)
    assert result.winner == (1 if winner == "knocker" else 0)


@SOLVER
@given(deals(11), st.sampled_from([0, 1, 4, 10]))
def test_it_finds_exactly_the_legal_knocks_under_a_limit(cards, limit):
    expected = {card.index: brute.deadwood(set(cards) - {card}) for card in cards}
    assert discard_deadwoods(mask_of(cards), limit) == {i: d for i, d in expected.items() if d <= limit}


def play_one_move(match, rng):
    """A random legal move, but knocking whenever one may, so hands end."""
    moves = match.hand.legal_moves()
    knocks = [move for move in moves if move.startswith("knock")]
    match.play(rng.choice(knocks or moves))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["hand", "game", "hollywood"]), st.booleans(), st.booleans())
def test_it_keeps_every_card_and_every_secret_through_random_play(seed, scoring, straight, oklahoma):
    rng = random.Random(seed)
    match = Match(Options(straight=straight, oklahoma=oklahoma), scoring=scoring, rng=random.Random(seed))
    save_at = rng.randrange(40)
    for _ in range(3):
        hand = match.hand
        for step in range(200):
            if hand.result is not None:
                break
            everything = hand.hands[0] | hand.hands[1] | mask_of(hand.pile) | mask_of(hand.stock)
            assert everything == (1 << 52) - 1
            for seat in (0, 1):
                # The history and the first upcard name only public cards, but after a reshuffle
                # such a card may be back in a hand or the stock: check the rest of the view.
                view = {key: value for key, value in hand.view(seat).items() if key not in ("history", "upcard")}
                assert not codes_seen(view) & hidden_from(hand, seat)
            if step == save_at:
                copy = Match.from_json(match.to_json(), rng=random.Random(seed))
                assert copy.to_json() == match.to_json() and copy.hand.view(0) == hand.view(0)
            play_one_move(match, rng)
        if hand.result is None or match.is_over:
            break
        match.next_hand()
