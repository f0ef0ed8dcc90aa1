"""Frames a socket may send: a token bucket per connection (settings GAMES_WS_RATE_BURST,
GAMES_WS_RATE_PER_SECOND) and one per client address (games.live.limits); a socket past
either is closed at once (4429), its refused frames neither answered nor looked at."""

import time


class Flooding(Exception):
    """A frame past its socket's or its address's budget."""


class RateLimit:
    def __init__(self, burst, per_second):
        self.burst, self.per_second = burst, per_second
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
