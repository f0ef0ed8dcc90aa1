"""Frames a socket may send: a token bucket per connection (settings GAMES_WS_RATE_BURST,
GAMES_WS_RATE_PER_SECOND), so a flood gets error frames instead of database work, and a client
that keeps sending past it is closed."""

import time

# A client that keeps sending past its limit is closed with 4008 (1008, policy violation, in
# the application's range 4000-4999: daphne's autobahn refuses to send 1008 and never closed
# such a client): a burst's worth of refused frames in a row is no accident.
FLOOD_CLOSE = 4008


class RateLimit:
    def __init__(self, burst, per_second):
        self.burst, self.per_second = burst, per_second
        self.tokens, self.stamp = float(burst), time.monotonic()
        self.refused = 0  # refusals since the last frame it was allowed

    def allow(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            self.refused += 1
            return False
        self.tokens -= 1
        self.refused = 0
        return True

    def flooding(self):
        return self.refused > self.burst
