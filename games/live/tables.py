"""This process's live tables: the owner of each table it serves, built from the database on
first use, least recently used first, bounded by count and by size (settings GAMES_TABLES,
GAMES_TABLE_MOVES), so memory stays flat however long it runs."""

import threading
from collections import OrderedDict

from django.conf import settings
from django.utils import timezone

from games.live import store
from games.live.owner import LiveTable


class LiveTables:
    def __init__(self):
        self.lock = threading.Lock()
        self.owners = OrderedDict()

    def get(self, code):
        """The owner of `code` if this process holds one (never builds, never blocks long)."""
        with self.lock:
            owner = self.owners.get(code)
            if owner is not None:
                self.owners.move_to_end(code)
            return owner

    def owner(self, code):
        """The owner of `code`, built from the database if this process holds none (so: in
        a thread that may use the database)."""
        owner = self.get(code)
        if owner is not None:
            return owner
        built = LiveTable(code)  # outside the lock: it reads the database
        with self.lock:
            owner = self.owners.setdefault(code, built)
            self.owners.move_to_end(code)
            self.evict()
            return owner

    def forget(self, code):
        with self.lock:
            self.owners.pop(code, None)

    def clear(self):
        with self.lock:
            self.owners.clear()

    def codes(self):
        with self.lock:
            return list(self.owners)

    def evict(self):
        limit, budget = settings.GAMES_TABLES, settings.GAMES_TABLE_MOVES
        total = sum(owner.size for owner in self.owners.values()) if budget else 0
        while len(self.owners) > 1 and (len(self.owners) > limit or total > budget):
            _code, evicted = self.owners.popitem(last=False)
            total -= evicted.size


live_tables = LiveTables()


def owner(code):
    return live_tables.owner(code)


def shown(code):
    """The snapshot this process last published of `code`, or None (never touches the database)."""
    held = live_tables.get(code)
    return held.snapshot if held is not None else None


# Reads of one table, by name, for the database thread (each builds the owner if need be).

def seat_for(code, token):
    return owner(code).seat_for(token)


def refreshed(code):
    return owner(code).refresh()


def caught_up(code, version=None):
    return owner(code).catch_up(version)


def computer_turn(code):
    return owner(code).computer_turn()


def clock_turn(code):
    return owner(code).clock_turn()


# This process as a whole.

def beat_this_process():
    """This process is alive: its sockets keep counting at every table (games.live.presence)."""
    store.beat_process(timezone.now())


def recount_this_process(counts):
    """This process's sockets counted anew from memory ({(code, seat): sockets}), then every
    owner here shows its seats as they are: after the database was away."""
    store.recount_process(counts)
    for code in live_tables.codes():
        held = live_tables.get(code)
        if held is not None:
            held.refresh()


def forget_dead_processes(cutoff):
    """Presence counted by processes silent since `cutoff` (crashed long ago)."""
    return store.forget_dead_presence(cutoff)


def database_versions(codes):
    """{code: the version the database has} of these tables, in one query: how the hub finds
    what this process missed."""
    return store.versions(codes)
