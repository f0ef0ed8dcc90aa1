"""A move as a value, and its compact text form both ways ("discard 7H")."""

from dataclasses import dataclass

from .cards import Card

DRAWS = ("pass", "pile", "stock")
DISCARDS = ("discard", "knock")
# The longest text a move can have: "discard 7H".
MAX_TEXT_LENGTH = 10


@dataclass(frozen=True)
class Move:
    """``verb`` is one of "pass", "pile", "stock", "discard", "knock"; ``card`` is the Card a
    discard or knock puts down, else None.

    >>> move = Move.from_text("knock 7H")
    >>> move.verb, move.card, move.text(), move.is_discard
    ('knock', Card('7H'), 'knock 7H', True)
    >>> Move.from_text("stock").card is None
    True
    """

    verb: str
    card: Card = None

    @classmethod
    def from_text(cls, text):
        """The move a text names; ValueError if it names none."""
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            raise ValueError(f"not a move: {text!r}")
        verb, _, code = text.partition(" ")
        if verb in DRAWS and not code:
            return cls(verb)
        if verb in DISCARDS:
            return cls(verb, Card.from_code(code))
        raise ValueError(f"not a move: {text!r}")

    @property
    def is_discard(self):
        """A discard or a knock: the move that ends a turn by putting a card down."""
        return self.verb in DISCARDS

    def text(self):
        return self.verb if self.card is None else f"{self.verb} {self.card}"

    def __str__(self):
        return self.text()
