"""Chat lines: what a line may be, and how fast a seat may speak.

Both are checked on the event loop before anything reaches the database thread, so a flood
of lines that will be refused costs the database nothing (the socket's own frame limit,
games.live.flood, comes first). The database's count of a seat's recent lines stays the final
word across processes; `Pace` only keeps this process from asking it when the answer is
already known.
"""

import time
from collections import deque

from django.conf import settings

from games import identity
from games.errors import GameError
from games.models import ChatMessage


def clean_line(text):
    """The line trimmed, else GameError: empty, too long, or holding what may not be shown."""
    text = identity.chat_text(text)  # GameError when a reader would see nothing in it
    if not text:
        raise GameError("chat_empty")
    if len(text) > ChatMessage.MAX_LENGTH or not all(identity.may_appear_in_a_name(c) for c in text):
        raise GameError("chat_refused")
    return text


class Pace:
    """The moments this process took each seat's recent lines (GAMES_CHAT_BURST lines per
    GAMES_CHAT_WINDOW_SECONDS)."""

    def __init__(self):
        self.said = {0: deque(), 1: deque()}

    def may_speak(self, seat, now=None):
        now = time.monotonic() if now is None else now
        recent = [moment for moment in self.said[seat] if moment > now - settings.GAMES_CHAT_WINDOW_SECONDS]
        return len(recent) < settings.GAMES_CHAT_BURST

    def spoke(self, seat, now=None):
        said = self.said[seat]
        said.append(time.monotonic() if now is None else now)
        while len(said) > settings.GAMES_CHAT_BURST:
            said.popleft()
