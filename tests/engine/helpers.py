"""Fixed deals for the engine's scenario tests."""

from games.engine import Card, Options, new_hand, parse_cards
from games.engine.cards import ALL_CARDS


def deck_for(non_dealer, dealer, upcard, stock="", bottom=""):
    """52 codes dealing these hands (10 codes each), this upcard, these stock cards on top and
    these at the bottom of the stock; the rest of the stock lies between, in card order."""
    front = [card for pair in zip(parse_cards(non_dealer), parse_cards(dealer)) for card in pair]
    front += [Card.from_code(upcard)] + parse_cards(stock)
    back = parse_cards(bottom)
    assert len(set(front + back)) == len(front + back) == 21 + len(stock.split()) + len(back)
    middle = [card for card in ALL_CARDS if card not in front and card not in back]
    return [str(card) for card in front + middle + back]


def deal(non_dealer, dealer, upcard, stock="", bottom="", options=Options(), dealer_seat=0):
    return new_hand(options, dealer_seat, deck=deck_for(non_dealer, dealer, upcard, stock, bottom))


def play(hand, *moves):
    for move in moves:
        hand.play(move)
    return hand


def draw_and_discard_until(game, stock_left):
    """Both players draw from the stock and throw the drawn card back, until stock_left remain.

    `game` is a Hand, or a Match (whose sheet then scores the hand's end)."""
    hand = getattr(game, "hand", game)
    if hand.phase == "offer":
        play(game, "pass", "pass")
    while len(hand.stock) > stock_left:
        seat = hand.to_move
        before = set(hand.view(seat)["hand"])
        game.play("stock")
        (drawn,) = set(hand.view(seat)["hand"]) - before
        game.play(f"discard {drawn}")
    return hand
