"""The one kind of refusal live play has: a code, turned into words by games.display.messages."""


class GameError(Exception):
    """An expected refusal (an illegal move, a full table, a bad name), never a crash."""

    def __init__(self, code, reason=None):
        super().__init__(code if reason is None else f"{code}: {reason}")
        self.code = code
        self.reason = reason  # the engine's reason code for an illegal move
