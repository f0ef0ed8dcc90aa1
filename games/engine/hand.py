"""One hand of Gin Rummy as a state machine: deal, the upcard offer, turns, the end."""

import random
from dataclasses import dataclass

from .cards import ALL_CARDS, RANK_VALUES, Card, cards_of, codes_of
from .deal import Deal
from .melds import arrangements, discard_deadwoods, points
from .moves import DISCARDS, DRAWS, Move
from .showdown import settle_draw, settle_knock

STOCK_ENDS = ("two_cards", "reshuffle")
# Under the two-card rule the last two cards of the stock are never drawn.
CLOSED_STOCK = 2
# The upcard is offered to the non-dealer, then to the dealer; once both have passed, the
# non-dealer must draw from the stock.
OFFER_PASSES = 2


def to_move_after_passes(dealer, passes):
    """Who moves once ``passes`` players (1 or 2) have passed the upcard.

    >>> to_move_after_passes(dealer=0, passes=1), to_move_after_passes(dealer=0, passes=2)
    (0, 1)
    """
    return dealer if passes == 1 else 1 - dealer


class IllegalMove(ValueError):
    """A move that is not legal now. ``code`` says why, as a code:

    ``unknown_move``, ``hand_over``, ``not_your_turn``, ``must_take_or_pass`` (the upcard
    offer), ``cannot_pass``, ``must_draw_from_stock`` (both passed the upcard),
    ``already_drew``, ``stock_closed`` (two-card rule), ``must_draw_first``,
    ``card_not_held``, ``card_just_taken``, ``over_knock_limit``; and from a match,
    ``hand_not_over`` and ``match_over``.

    >>> hand = new_hand(Options(), dealer=0, rng=random.Random(1))
    >>> try:
    ...     hand.play("stock")
    ... except IllegalMove as error:
    ...     error.code
    'must_take_or_pass'
    """

    def __init__(self, code):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Options:
    """The table's rules. ``stock_end`` is "two_cards" or "reshuffle".

    >>> Options(oklahoma=True)
    Options(straight=False, oklahoma=True, stock_end='two_cards')
    """

    straight: bool = False
    oklahoma: bool = False
    stock_end: str = "two_cards"

    def __post_init__(self):
        if self.stock_end not in STOCK_ENDS:
            raise ValueError(f"bad stock_end: {self.stock_end!r}")

    def knock_limit(self, upcard):
        """The most deadwood one may knock with, given the hand's first upcard."""
        if self.straight:
            return 0
        if not self.oklahoma:
            return 10
        # An ace upcard means gin only, although an ace is worth one.
        return 0 if upcard.rank == 0 else RANK_VALUES[upcard.rank]

    def to_dict(self):
        return {"straight": self.straight, "oklahoma": self.oklahoma, "stock_end": self.stock_end}


def new_hand(options, dealer, rng=None, deck=None, deal=None):
    """Deal a hand: from ``deck`` (52 codes, top first) if given, else from ``deal`` (a
    Deal, which then reshuffles too) if given, else shuffled by ``rng``.

    >>> hand = new_hand(Options(), dealer=0, rng=random.Random(7))
    >>> hand.to_move, hand.phase, hand.legal_moves()
    (1, 'offer', ['pass', 'pile'])
    >>> view = hand.view(1)
    >>> len(view["hand"]), view["opponent_count"], view["stock_count"], view["discard_count"]
    (10, 10, 31, 1)
    """
    if deck is None and deal is not None:
        deck = deal.deck()
    if deck is None:
        deck = list(ALL_CARDS)
        (rng or random.SystemRandom()).shuffle(deck)
    return Hand(options, dealer, deck, rng=rng, deal=deal)


class Hand:
    """A hand in play. Moves are strings: "pass", "pile", "stock", "discard 7H", "knock 7H"."""

    def __init__(self, options, dealer, deck, rng=None, reshuffles=(), deal=None):
        if dealer not in (0, 1):
            raise ValueError(f"bad dealer: {dealer!r}")
        self.options = options
        self.dealer = dealer
        self.deck = _parse_deck(deck)
        self.hands = [0, 0]
        for turn, card in enumerate(self.deck[:20]):
            self.hands[self._non_dealer if turn % 2 == 0 else dealer] |= card.mask
        self.pile = [self.deck[20]]
        self.stock = list(reversed(self.deck[21:]))  # the top of the stock is the last item
        self.knock_limit = options.knock_limit(self.deck[20])
        self.to_move = self._non_dealer
        self.phase = "offer"
        self.history = []  # (seat, move) in order
        self.reshuffles = []  # each new stock's order, top first, so a replay deals the same
        self.result = None
        self.rng = rng  # shuffles a reshuffled stock (single-hand mode) when there is no deal
        self.deal = deal  # the Deal the deck came from, which reshuffles too; None: dealt by rng
        self._planned_reshuffles = [_parse_deck(order, len(order)) for order in reshuffles]
        self._passes = 0
        self._upcard_declined = False  # both passed: the non-dealer must draw from the stock
        self._taken_from_pile = None  # the card that may not go straight back
        self._drawn = None  # the card the player to move drew this turn, from either pile
        self._known = [0, 0]  # cards each seat took from the pile and still holds
        self._knocks = None  # this turn's legal knocks, once asked for

    @property
    def _non_dealer(self):
        return 1 - self.dealer

    # Moves -----------------------------------------------------------------------------

    def legal_moves(self):
        """Every move the player to move may make now, draws first, then discards, then knocks."""
        if self.result is not None:
            return []
        # As texts (Move.text's form) straight away: every view of the player to move asks.
        moves = [verb for verb in DRAWS if self._why_illegal(verb, None) is None]
        holding = self._holding(self.to_move)
        for verb in DISCARDS:
            moves += [f"{verb} {card.code()}" for card in holding if self._why_illegal(verb, card) is None]
        return moves

    def play(self, move, seat=None):
        """Play a move for the player to move (or check it is ``seat``'s turn first).

        Raises IllegalMove, changing nothing, for anything not in legal_moves().
        """
        if self.result is not None:
            raise IllegalMove("hand_over")
        if seat is not None and seat != self.to_move:
            raise IllegalMove("not_your_turn")
        try:
            move = Move.from_text(move)
        except ValueError:
            raise IllegalMove("unknown_move") from None
        reason = self._why_illegal(move.verb, move.card)
        if reason is not None:
            raise IllegalMove(reason)
        self.history.append((self.to_move, move.text()))
        self._knocks = None
        getattr(self, "_" + move.verb)(move.card)

    def _why_illegal(self, verb, card):
        if verb in DISCARDS:
            return self._why_cannot_discard(verb, card)
        if self.phase == "discard":
            return "already_drew"
        return {"pass": self._why_cannot_pass, "pile": self._why_cannot_take_pile, "stock": self._why_cannot_draw_stock}[verb]()

    def _why_cannot_pass(self):
        return None if self.phase == "offer" else "cannot_pass"

    # Neither pile can run dry at a draw: the players hold at most 21 cards, so the other
    # 31 are in the stock or the pile, and a reshuffle leaves the pile its top card.
    def _why_cannot_take_pile(self):
        return "must_draw_from_stock" if self._upcard_declined else None

    def _why_cannot_draw_stock(self):
        if self.phase == "offer":
            return "must_take_or_pass"
        if self.options.stock_end == "two_cards" and len(self.stock) <= CLOSED_STOCK:
            return "stock_closed"
        return None

    def _why_cannot_discard(self, verb, card):
        if self.phase != "discard":
            return "must_draw_first"
        if not self.hands[self.to_move] & card.mask:
            return "card_not_held"
        if card is self._taken_from_pile:
            return "card_just_taken"
        if verb == "knock" and card.index not in self.knock_deadwoods():
            return "over_knock_limit"
        return None

    def _pass(self, _card):
        self._passes += 1
        self.to_move = to_move_after_passes(self.dealer, self._passes)
        if self._passes == OFFER_PASSES:
            self.phase = "draw"
            self._upcard_declined = True

    def _pile(self, _card):
        card = self.pile.pop()
        self._take(card)
        self._known[self.to_move] |= card.mask
        self._taken_from_pile = card

    def _stock(self, _card):
        if not self.stock:
            self._reshuffle()
        self._take(self.stock.pop())
        self._upcard_declined = False

    def _take(self, card):
        self._drawn = card
        self.hands[self.to_move] |= card.mask
        self.phase = "discard"

    def _reshuffle(self):
        """The pile, except its top card, becomes the new stock (single-hand mode)."""
        cards, self.pile = self.pile[:-1], self.pile[-1:]
        if self._planned_reshuffles:
            order = self._planned_reshuffles.pop(0)
            if sorted(order) != sorted(cards):
                raise ValueError("recorded reshuffle does not match the discard pile")
        elif self.deal is not None:
            order = self.deal.reshuffle(len(self.reshuffles) + 1, cards)
        else:
            order = list(cards)
            (self.rng or random.SystemRandom()).shuffle(order)
        self.reshuffles.append(order)
        self.stock = list(reversed(order))

    def _release(self, card):
        seat = self.to_move
        self.hands[seat] &= ~card.mask
        self._known[seat] &= ~card.mask
        self._taken_from_pile = None
        self._drawn = None

    def _discard(self, card):
        self._release(card)
        self.pile.append(card)
        if self.options.stock_end == "two_cards" and len(self.stock) == CLOSED_STOCK:
            self._end(settle_draw(self.hands))
        else:
            self.to_move, self.phase = 1 - self.to_move, "draw"

    def _knock(self, card):
        knocker = self.to_move
        self._release(card)
        self._end(settle_knock(knocker, self.hands, card.code()))

    def _end(self, result):
        self.result = result
        self.to_move, self.phase = None, "over"

    # What players see --------------------------------------------------------------------

    def knock_deadwoods(self):
        """After the draw: {card index: deadwood left} for each discard one may knock with."""
        if self._knocks is None:
            self._knocks = discard_deadwoods(self.hands[self.to_move], self.knock_limit)
        return self._knocks

    def _holding(self, seat):
        return cards_of(self.hands[seat])

    def view(self, seat=None):
        """What ``seat`` may see, as a JSON-serialisable dict; ``seat=None`` is a spectator:
        the table's public part (`public_view`) and the seat's own (`seat_view`).

        Before the end it holds none of the opponent's cards except those they were seen to
        take from the pile, and nothing about the stock's order.
        """
        return {**self.public_view(), **self.seat_view(seat)}

    def public_view(self):
        """What every reader sees alike: ``dealer``, ``to_move``, ``phase`` ("offer", "draw",
        "discard" or "over"), ``options``, ``knock_limit``; for both seats ``counts`` and
        ``known`` (the cards each took from the pile and still holds); ``stock_count``,
        ``discard_count``, ``discard_top``, ``pile`` (the face-up discard pile, bottom first)
        and ``upcard`` (the hand's first upcard); ``history`` ([seat, move] pairs); once over,
        ``hands`` (both, as codes) and ``result``; ``deal``, the commitment of a dealt hand
        (Deal), and once it is over its seed and contributions too. A table's readers share one (the live
        snapshot builds it once for all of them)."""
        return {
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "options": self.options.to_dict(),
            "knock_limit": self.knock_limit,
            "counts": [hand.bit_count() for hand in self.hands],
            "known": [codes_of(known) for known in self._known],
            "stock_count": len(self.stock),
            "discard_count": len(self.pile),
            "discard_top": self.pile[-1].code() if self.pile else None,
            "pile": [card.code() for card in self.pile],
            "upcard": self.deck[20].code(),
            "history": [[who, move] for who, move in self.history],
            "hands": [codes_of(hand) for hand in self.hands] if self.result else None,
            "result": self._result_data(),
            "deal": self._deal_data(),
        }

    def _deal_data(self):
        """The deal's commitment while the hand is played; once it is over, its seed and
        contributions too (Deal.to_dict()). None for a hand dealt by an rng."""
        if self.deal is None:
            return None
        return self.deal.to_dict() if self.result else {"commitment": self.deal.commitment}

    def seat_view(self, seat):
        """What only ``seat`` sees (None: a spectator, who holds nothing): ``seat``; its
        ``hand`` (codes, melds first), ``melds``, ``deadwood``, ``deadwood_points``;
        ``opponent_count`` and ``opponent_known``; and for the seat to move ``legal_moves``,
        ``cannot_discard`` (the card just taken from the pile), ``drawn`` (the card it drew
        this turn, from either pile: its own secret), ``discard_deadwood`` and ``knocks``
        ({code: deadwood})."""
        mine = seat is not None and self._is_to_move(seat)
        discarding = mine and self.phase == "discard"
        return {
            "seat": seat,
            **self._arranged(seat),
            "opponent_count": self.hands[1 - seat].bit_count() if seat is not None else None,
            "opponent_known": codes_of(self._known[1 - seat]) if seat is not None else [],
            "cannot_discard": self._taken_from_pile.code() if mine and self._taken_from_pile else None,
            "drawn": self._drawn.code() if discarding and self._drawn else None,
            "legal_moves": self.legal_moves() if mine else [],
            "discard_deadwood": self._discard_options() if discarding else {},
            "knocks": self._knock_options() if discarding else {},
        }

    def _result_data(self):
        """The result as data, made once: every reader's view carries it."""
        if self.result is None:
            return None
        if getattr(self, "_result_dict", None) is None:
            self._result_dict = self.result.to_dict()
        return self._result_dict

    def _is_to_move(self, seat):
        return self.result is None and seat == self.to_move

    def _arranged(self, seat):
        if seat is None:
            return {"hand": [], "melds": [], "deadwood": [], "deadwood_points": 0}
        melds, loose = arrangements(self.hands[seat])[0]
        return {
            "hand": [code for meld in melds for code in codes_of(meld)] + codes_of(loose),
            "melds": [codes_of(meld) for meld in melds],
            "deadwood": codes_of(loose),
            "deadwood_points": points(loose),
        }

    def _knock_options(self):
        """{code: deadwood} for each legal knock: what a "Knock (n)" button shows."""
        return {
            ALL_CARDS[index].code(): deadwood
            for index, deadwood in sorted(self.knock_deadwoods().items())
            if ALL_CARDS[index] is not self._taken_from_pile
        }

    def _discard_options(self):
        """Each card one may discard now, with the deadwood that discard would leave."""
        deadwoods = discard_deadwoods(self.hands[self.to_move])
        return {card.code(): deadwoods[card.index] for card in self._holding(self.to_move) if card is not self._taken_from_pile}

    # Saving ----------------------------------------------------------------------------

    def to_dict(self):
        """The hand as data: its deck, its moves and any reshuffled stocks, all as codes, and
        its deal (Deal.to_dict(): the seed too, so never for a browser) if it has one."""
        saved = {
            "dealer": self.dealer,
            "deck": [card.code() for card in self.deck],
            "moves": [move for _, move in self.history],
            "reshuffles": [[card.code() for card in order] for order in self.reshuffles],
        }
        if self.deal is not None:
            saved["deal"] = self.deal.to_dict()
        return saved

    @classmethod
    def from_dict(cls, options, data, rng=None):
        """Replay a hand saved by to_dict(), move by move."""
        deal = Deal.from_dict(data["deal"]) if data.get("deal") else None
        hand = cls(options, data["dealer"], data["deck"], rng=rng, reshuffles=data["reshuffles"], deal=deal)
        for move in data["moves"]:
            hand.play(move)
        return hand


def _parse_deck(codes, size=52):
    cards = [code if isinstance(code, Card) else Card.from_code(code) for code in codes]
    if len(cards) != size or len(set(cards)) != size:
        raise ValueError(f"a deck must hold {size} different cards")
    return cards
