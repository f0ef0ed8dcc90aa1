"""Live play's matches: made for a table, rebuilt from its saved state, cached by version.

The services save a match with the engine's own `Match.to_dict()`; nothing else here
knows the save format.
"""

import random
import threading
from collections import OrderedDict

from django.db import transaction

from games.engine import Match, Options


def rng_for(table):
    """SystemRandom for real tables; a seeded Random only when a test fixed `deal_seed`.

    The seed is mixed with the match and the version so that every deal of a seeded
    table is reproducible, yet different from the one before.
    """
    if table.deal_seed is None:
        return random.SystemRandom()
    return random.Random(f"{table.deal_seed}:{table.match_number}:{table.version}")


def options_of(table):
    return Options(straight=table.straight, oklahoma=table.oklahoma)


def new_match(table, rng):
    return Match(options_of(table), scoring=table.scoring, target=table.target, first_dealer=rng.randrange(2), rng=rng)


class MatchCache:
    """Matches by (table id, version), so that a move does not replay the whole match
    (the engine's save format is a replay) once for the service and once per socket.

    A table's state never changes without a version bump, so an entry cannot go stale;
    another process simply misses and loads from the database.
    """

    def __init__(self, size=512):
        self.size = size
        self.entries = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
            return self.entries.get(key)

    def put(self, key, match):
        with self.lock:
            self.entries[key] = match
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def pop(self, key):
        with self.lock:
            return self.entries.pop(key, None)

    def clear(self):
        with self.lock:
            self.entries.clear()


cache = MatchCache()


def from_database(table):
    """The table's match rebuilt from its saved state (a replay of every hand)."""
    return Match.from_dict(table.state, rng=rng_for(table))


def for_reading(table):
    """The table's match, shared with other readers: never change it."""
    key = (table.pk, table.version)
    match = cache.get(key)
    if match is None:
        match = from_database(table)
        cache.put(key, match)
    return match


def for_writing(table):
    """The table's match, taken out of the cache so nobody reads it while it changes."""
    match = cache.pop((table.pk, table.version)) or from_database(table)
    # Deals and reshuffles depend on the table alone, cached or not.
    match.use_rng(rng_for(table))
    return match


def put_back(table, match):
    """A match taken for writing but left unchanged (a refused move) serves its version again."""
    cache.put((table.pk, table.version), match)


def remember(table, match):
    """Once the write has committed, the changed match serves the new version."""
    key = (table.pk, table.version)
    transaction.on_commit(lambda: cache.put(key, match))
