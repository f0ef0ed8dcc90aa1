"""Memory given back after a crowd of sockets leaves a server process.

A socket's objects live in reference cycles (the consumer, its task, its bound handlers), and
those of a socket that stayed a while have been promoted to the collector's oldest generation,
which the thresholds in hollywood_site/asgi.py visit rarely: a thousand spectators gone left
some 100 MB behind (benchmarks/faults.py). Once the sockets open in the process fall to half
their peak, a crowd's (CROWD or more), the oldest generation is collected and glibc's heap
trimmed, a little later, once for all who left together.
"""

import asyncio
import ctypes
import gc

CROWD = 200
LATER_SECONDS = 2  # those who leave together leave within this; one collection for all


def trim_heap():
    """Return the C heap's free pages to the system, where the C library can (glibc)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def give_back():
    gc.collect()
    trim_heap()


class Crowd:
    """The sockets open in this process, and their peak since memory was last given back."""

    def __init__(self, give_back=give_back, later=None):
        self.open = self.peak = 0
        self.give_back, self.scheduled = give_back, False
        self.later = later or (lambda seconds, callback: asyncio.get_running_loop().call_later(seconds, callback))

    def joined(self):
        self.open += 1
        self.peak = max(self.peak, self.open)

    def left(self):
        self.open -= 1
        if self.peak >= CROWD and self.open <= self.peak // 2 and not self.scheduled:
            self.scheduled = True
            self.later(LATER_SECONDS, self.given_back)

    def given_back(self):
        self.scheduled, self.peak = False, self.open
        self.give_back()


crowd = Crowd()
