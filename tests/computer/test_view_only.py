"""The computer reads nothing but its view: what it cannot see cannot change its choice."""

import random

import pytest

from games.computer import LEVELS, choose_move
from games.engine import Match, new_hand, Options
from games.engine.cards import ALL_CARDS

BOTTOM = 42  # the deck's last ten cards are the bottom of the stock, never drawn below
STOCK_LEFT = 15


def twin_decks(seed, dealer, hidden_seat):
    """Two decks that differ only in ``hidden_seat``'s hand, swapped with the stock's bottom."""
    deck = [card.code() for card in ALL_CARDS]
    random.Random(seed).shuffle(deck)
    twin = list(deck)
    # The non-dealer's cards are dealt first, at the even positions; the dealer's at the odd.
    hidden = range(0 if hidden_seat != dealer else 1, 20, 2)
    for position, bottom in zip(hidden, range(BOTTOM, 52)):
        twin[position], twin[bottom] = twin[bottom], twin[position]
    return deck, twin


def played_to(deck, dealer):
    """Both pass the upcard, then each draws from the stock and throws the drawn card back."""
    hand = new_hand(Options(stock_end="two_cards"), dealer, deck=deck)
    hand.play("pass")
    hand.play("pass")
    while len(hand.stock) > STOCK_LEFT:
        drawn = hand.stock[-1].code()
        hand.play("stock")
        hand.play(f"discard {drawn}")
    return hand


def match_view(hand, seat):
    return {**Match(scoring="game").view(seat), "hand_view": hand.view(seat)}


@pytest.mark.parametrize("level", LEVELS)
def test_it_chooses_alike_behind_two_different_hidden_states_with_the_same_view(level):
    for seed in range(6):
        dealer = seed % 2
        seat = played_to(twin_decks(seed, dealer, 0)[0], dealer).to_move
        real, twin = (played_to(deck, dealer) for deck in twin_decks(seed, dealer, 1 - seat))
        assert real.hands[1 - seat] != twin.hands[1 - seat]
        for _ in range(2):  # the draw, then the discard
            view, twin_view = match_view(real, seat), match_view(twin, seat)
            assert view == twin_view
            move = choose_move(view, level, random.Random(seed))
            assert choose_move(twin_view, level, random.Random(seed)) == move
            if move.startswith("knock"):
                break
            real.play(move)
            twin.play(move)
