"""Each live table, kept in the process that serves it: its rows, its match, what readers see.

A `Room` is a table as of its last committed change: the Table row, its Seat rows, the engine's
Match, and a `state.Snapshot` — the state each reader may see (seat 0, seat 1, a spectator),
built once per change by the code that made it. Sockets send a snapshot without touching the
database or the match; only code holding the room's lock (the services, a catch-up) reads or
changes the match, so a socket never sees a match half-way through a move.

The database stays the truth. A room is built from it — the table's saved match as of its
`state_version` (a snapshot taken at each deal, and whenever a reshuffle drew on chance), then
the move log after that — so a rebuild replays at most the current hand's moves after the
snapshot. A room that falls behind another process's writes catches up from the log; a write
from a room that had fallen behind fails its compare-and-swap and the room is rebuilt. Any
process can serve any table correctly; table affinity at the proxy only makes it fast.
"""

import random
import threading
from collections import OrderedDict

from django.conf import settings
from django.utils import timezone

from games.engine import IllegalMove, Match, Options
from games.errors import GameError
from games.identity import is_public_id
from games.archive.stats import wins_before
from games.models import ChatMessage, Move, Seat, Table
from games.live.snapshot import Snapshot, seat_holding


# The operating system's randomness, for every real table: a SystemRandom of each room's own
# would carry a Mersenne Twister's 2.5 KB state that it never uses (the soak's tracemalloc).
SYSTEM_RANDOM = random.SystemRandom()


def rng_for(table):
    """SystemRandom for real tables; a seeded Random only when a test fixed `deal_seed`.

    The seed is mixed with the match and the version so that every deal of a seeded
    table is reproducible, yet different from the one before.
    """
    if table.deal_seed is None:
        return SYSTEM_RANDOM
    return random.Random(f"{table.deal_seed}:{table.match_number}:{table.version}")


def new_match(table):
    rng = rng_for(table)
    options = Options(straight=table.straight, oklahoma=table.oklahoma)
    return Match(options, scoring=table.scoring, target=table.target, first_dealer=rng.randrange(2), rng=rng)


class Room:
    def __init__(self, table, seats, match):
        self.lock = threading.RLock()
        self.table, self.seats, self.match = table, seats, match
        self.seats_read = timezone.now()
        self.earlier_wins = (None, (0, 0))  # (for match number, wins before it)
        self.publish()

    def publish(self):
        """Make the current table, seats and match what readers see."""
        if self.earlier_wins[0] != self.table.match_number:  # read once a match (a rematch)
            self.earlier_wins = (self.table.match_number, wins_before(self.table.code, self.table.match_number))
        self.snapshot = Snapshot(self.table, self.seats, self.match, self.earlier_wins[1])

    def reload_seats(self):
        self.seats = seats_of(self.table)
        self.seats_read = timezone.now()

    @property
    def size(self):
        """Roughly what the room holds in memory: the moves of its match."""
        return sum(len(hand.history) for hand in self.match.hands) + len(self.match.hands)


def seats_of(table):
    return {seat.number: seat for seat in Seat.objects.filter(table_id=table.pk)}


def get_table(code):
    table = Table.objects.filter(code=code).first() if is_public_id(code) else None
    if table is None:
        raise GameError("unknown_table")
    return table


def build(code):
    """The room of table `code`, from the database alone."""
    table = get_table(code)
    match = Match.from_dict(table.state, rng=rng_for(table))
    replay(match, Move.objects.filter(table_id=table.pk, version__gt=table.state_version))
    match.use_rng(rng_for(table))
    return Room(table, seats_of(table), match)


def replay(match, moves):
    for seat, text in moves.order_by("version").values_list("seat", "text"):
        match.play(text, seat)


class Rooms:
    """The rooms of this process, least recently used first; bounded by count and by size
    (settings GAMES_ROOMS, GAMES_ROOM_MOVES), so memory stays flat however long it runs."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rooms = OrderedDict()

    def get(self, code):
        """The room of `code` if this process holds one (never builds, never blocks long)."""
        with self.lock:
            room = self.rooms.get(code)
            if room is not None:
                self.rooms.move_to_end(code)
            return room

    def room(self, code):
        """The room of `code`, built from the database if this process holds none."""
        room = self.get(code)
        if room is None:
            room = self.put(code, build(code))
        return room

    def put(self, code, room):
        with self.lock:
            room = self.rooms.setdefault(code, room)
            self.rooms.move_to_end(code)
            self._evict()
            return room

    def forget(self, code):
        with self.lock:
            self.rooms.pop(code, None)

    def clear(self):
        with self.lock:
            self.rooms.clear()

    def _evict(self):
        limit, budget = settings.GAMES_ROOMS, settings.GAMES_ROOM_MOVES
        total = sum(room.size for room in self.rooms.values()) if budget else 0
        while len(self.rooms) > 1 and (len(self.rooms) > limit or total > budget):
            _code, evicted = self.rooms.popitem(last=False)
            total -= evicted.size


rooms = Rooms()


def snapshot_at_least(code, version):
    """This process's snapshot of `code` at `version` or later: caught up from the database
    when the room is behind (another process wrote), built when there is none."""
    room = rooms.room(code)
    if room.snapshot.version >= version:
        return room.snapshot
    with room.lock:
        if room.snapshot.version < version:
            catch_up(code, room)
    return rooms.room(code).snapshot


def latest(code):
    """This process's snapshot of `code` as the database has it now (a connecting socket, a
    stale move): one read of the table's version when the room is current."""
    room = rooms.room(code)
    with room.lock:
        catch_up(code, room)
    return rooms.room(code).snapshot


def catch_up(code, room):
    """Bring `room` to the database's last committed version: the moves since, or, after a
    new saved match (a deal, a rematch), a rebuild."""
    table = get_table(code)
    if table.version == room.table.version:
        return
    if table.state_version != room.table.state_version or table.match_number != room.table.match_number:
        rooms.forget(code)
        rooms.put(code, build(code))
        return
    try:
        replay(room.match, Move.objects.filter(table_id=table.pk, version__gt=room.table.version))
    except IllegalMove:
        # The room had gone astray (it cannot, but if it did): the database decides.
        rooms.forget(code)
        rooms.put(code, build(code))
        return
    room.table = table
    room.reload_seats()
    room.publish()


def versions(codes):
    """{code: the database's version} of these tables, in one query."""
    return dict(Table.objects.filter(code__in=codes).values_list("code", "version"))


def chat_lines(table, seats, limit=50):
    """The table's latest chat lines, oldest first, with the speaker's name (`seats`: by number)."""
    names = {number: seat.name for number, seat in seats.items()}
    lines = list(ChatMessage.objects.filter(table=table).order_by("-id")[:limit])
    return [{"id": line.pk, "seat": line.seat, "name": names.get(line.seat, ""), "text": line.text}
            for line in reversed(lines)]


def load_state(code, seat):
    """The state `seat` (None: a spectator) may see of table `code` as the database has it
    now, its seats included."""
    return load(code)[2].state_for(seat)


def find_seat(code, token):
    """The seat number `token` holds at table `code`, or None for a spectator."""
    return seat_holding(rooms.room(code).seats.values(), token)


def load(code):
    """(table, seats, snapshot) of `code` as the database has it now: for a page."""
    room = rooms.room(code)
    with room.lock:
        catch_up(code, room)
    room = rooms.room(code)
    with room.lock:
        room.reload_seats()
        room.publish()
        return room.table, room.seats, room.snapshot


def fresh_seats(code):
    """The snapshot of `code` after re-reading its seats (presence or readiness changed)."""
    room = rooms.room(code)
    with room.lock:
        room.reload_seats()
        room.publish()
    return room.snapshot
