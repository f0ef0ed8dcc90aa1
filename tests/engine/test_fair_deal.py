"""A deal nobody can rig (docs/fairness.md): the commitment, the streams, the shuffle's uniformity."""

import hashlib
import json
import math

import pytest

from games.engine import SINGLE_HAND, Deal, Match, NextDeal, Options
from games.engine.deal import below, commitment, new_share, seeded_share

from .helpers import draw_and_discard_until
from .test_match import won_hand

SEED, FIRST, SECOND = "00" * 32, "11" * 32, "22" * 32
DEALS = 10_400  # 200 a cell of the card-by-place table: enough to reject a modulo-biased shuffle


def a_deal(seed=SEED, first=FIRST, second=SECOND):
    return Deal(seed, (first, second))


def codes(cards):
    return [card.code() for card in cards]


def test_it_commits_to_the_sha256_of_the_seeds_bytes():
    seed = new_share()
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest() == Deal(seed, (FIRST, SECOND)).commitment


def test_it_deals_the_same_deck_from_the_same_seed_and_contributions():
    assert codes(a_deal().deck()) == codes(a_deal().deck())
    assert sorted(codes(a_deal().deck())) == sorted(codes(Deal(new_share(), (FIRST, SECOND)).deck()))


@pytest.mark.parametrize("changed", ["seed", "first", "second"])
def test_it_deals_another_deck_when_any_one_share_changes(changed):
    assert codes(a_deal(**{changed: "33" * 32}).deck()) != codes(a_deal().deck())


def test_it_does_not_let_the_contributions_trade_places():
    assert codes(a_deal(first=SECOND, second=FIRST).deck()) != codes(a_deal().deck())


def test_it_draws_the_deck_and_each_reshuffle_on_streams_of_their_own():
    deal = a_deal()
    starts = [bytes(next(deal.stream(label)) for _ in range(8)) for label in ("deck", "first-dealer", "reshuffle-1", "reshuffle-2")]
    assert len(set(starts)) == 4
    pile = a_deal().deck()[:30]
    assert codes(deal.reshuffle(1, pile)) != codes(deal.reshuffle(2, pile))


def test_it_reshuffles_the_same_cards_alike_whatever_order_the_pile_was_in():
    pile = a_deal().deck()[:30]
    assert codes(a_deal().reshuffle(1, pile)) == codes(a_deal().reshuffle(1, list(reversed(pile))))


@pytest.mark.parametrize("share", ["11" * 31, "11" * 33, "AA" * 32, "zz" * 32, " " + "1" * 63, None, 17, b"1" * 64])
def test_it_refuses_a_malformed_contribution(share):
    with pytest.raises(ValueError, match="bad contribution"):
        a_deal(second=share)


def test_it_refuses_a_saved_deal_whose_seed_does_not_match_its_commitment():
    saved = a_deal().to_dict() | {"seed": "33" * 32}
    with pytest.raises(ValueError, match="commitment"):
        Deal.from_dict(saved)


def test_it_skips_the_bytes_that_would_favour_the_low_numbers():
    # 52 × 4 = 208: the bytes 208 to 255 would make 0 to 47 likelier than 48 to 51.
    assert below(52, iter([255, 208, 207])) == 207 % 52
    assert below(2, iter([255])) == 1


def test_it_deals_a_match_from_its_deals_and_saves_them():
    match = Match(Options(), scoring="hollywood", deal=a_deal())
    assert codes(match.hand.deck) == codes(a_deal().deck())
    saved = match.to_dict()["hands"][0]["deal"]
    assert saved == {"commitment": commitment(SEED), "seed": SEED, "contributions": [FIRST, SECOND], "supplied": [False, False]}
    assert Match.from_dict(match.to_dict()).hand.deal == match.hand.deal


def test_it_draws_the_first_dealer_from_the_first_deal_when_none_is_chosen():
    dealers = set()
    for number in range(16):
        deal = a_deal(seed=seeded_share("dealer", number))
        match = Match(Options(), first_dealer=None, deal=deal)
        assert match.first_dealer == match.hand.dealer == deal.first_dealer()
        assert match.to_dict()["hands"][0]["deal"]["draws_dealer"] is True
        dealers.add(match.first_dealer)
    assert dealers == {0, 1}


def test_it_deals_the_next_hand_from_the_deal_it_is_given():
    match = Match.from_dict({"format": 1, "options": {"straight": False, "oklahoma": False}, "scoring": "hollywood",
                             "target": 100, "first_dealer": 0, "hands": [won_hand(dealer=0, winner=1)]})
    match.next_hand(deal=a_deal())
    assert codes(match.hand.deck) == codes(a_deal().deck()) and match.hand.dealer == 1


def test_it_reshuffles_a_single_hand_from_its_deal_and_replays_the_reshuffle():
    match = Match(Options(), scoring=SINGLE_HAND.name, deal=a_deal())
    hand = draw_and_discard_until(match, stock_left=0)
    pile = list(hand.pile)
    match.play("stock")
    assert codes(hand.reshuffles[0]) == codes(a_deal().reshuffle(1, pile[:-1]))
    assert Match.from_dict(match.to_dict()).hand.reshuffles == hand.reshuffles


def test_it_keeps_a_match_without_deals_as_it_was_saved():
    match = Match(Options(), first_dealer=0)
    assert "deal" not in match.to_dict()["hands"][0]
    assert Match.from_dict(match.to_dict()).hand.deal is None


# The shuffle's uniformity ------------------------------------------------------------------


def chi_square_of_places(decks):
    """Pearson's chi-square of the 52 × 52 table of how often each card lay in each place."""
    counts, total = [[0] * 52 for _ in range(52)], 0
    for deck in decks:
        total += 1
        for place, card in enumerate(deck):
            counts[card.index][place] += 1
    expected = total / 52
    return sum((count - expected) ** 2 / expected for row in counts for count in row)


def critical_chi_square(freedom, z=3.719):
    """The chi-square a fair shuffle exceeds once in 10,000 runs (Wilson–Hilferty, z of 1e-4)."""
    return freedom * (1 - 2 / (9 * freedom) + z * math.sqrt(2 / (9 * freedom))) ** 3


def fixed_deals(deal_class=Deal):
    for number in range(DEALS):
        yield deal_class(seeded_share("seed", number), (seeded_share("first", number), seeded_share("second", number)))


class ModuloDeal(Deal):
    """The shuffle without rejection sampling: byte % n, which favours the low numbers."""

    def shuffled(self, cards, label):
        order, stream = list(cards), self.stream(label)
        for place in range(len(order) - 1, 0, -1):
            pick = next(stream) % (place + 1)
            order[place], order[pick] = order[pick], order[place]
        return order


def test_it_puts_every_card_in_every_place_equally_often():
    assert chi_square_of_places(deal.deck() for deal in fixed_deals()) < critical_chi_square(51 * 51)


def test_the_uniformity_test_rejects_a_shuffle_that_favours_low_numbers():
    assert chi_square_of_places(deal.deck() for deal in fixed_deals(ModuloDeal)) > critical_chi_square(51 * 51)


# The next hand's deal, while it waits for the contributions -------------------------------


def test_it_takes_each_seats_contribution_once_and_supplies_the_missing_one():
    waiting = NextDeal(SEED).with_contribution(0, FIRST)
    deal = waiting.fixed(supply=lambda: SECOND)
    assert deal == Deal(SEED, (FIRST, SECOND), supplied=(False, True))
    assert waiting.commitment == commitment(SEED)


@pytest.mark.parametrize("share", ["11" * 31, "AA" * 32, "", None, 42, ["11" * 32]])
def test_it_refuses_a_malformed_contribution_and_keeps_waiting_as_it_was(share):
    waiting = NextDeal(SEED)
    with pytest.raises(ValueError, match="contribution_malformed"):
        waiting.with_contribution(0, share)
    assert waiting.contributions == (None, None)


def test_it_refuses_a_second_contribution_from_the_same_seat():
    waiting = NextDeal(SEED).with_contribution(1, SECOND)
    with pytest.raises(ValueError, match="contribution_twice"):
        waiting.with_contribution(1, FIRST)
    assert waiting.fixed().contributions[1] == SECOND


def test_it_keeps_a_waiting_deal_through_saving():
    waiting = NextDeal(SEED).with_contribution(1, SECOND)
    assert NextDeal.from_dict(waiting.to_dict()) == waiting


def test_it_shows_only_the_commitment_while_the_hand_is_played_and_the_seed_once_it_is_over():
    match = Match(Options(), deal=a_deal())
    assert match.view(0)["hand_view"]["deal"] == {"commitment": commitment(SEED)}
    assert SEED not in json.dumps(match.view(0)) and SEED not in json.dumps(match.view(None))
    draw_and_discard_until(match, stock_left=2)
    assert match.view(1)["hand_view"]["deal"] == a_deal().to_dict()
