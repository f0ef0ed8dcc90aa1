"""This process's one listener on the channel layer, for all of its tables' sockets.

A change is told to the sockets of the process that made it at once, in memory, and to the
other processes through the channel layer: each process listens on one channel of its own,
which joins the group of every table it has sockets for, and hands what it hears to those
sockets. So a change costs the layer one message per process, not one per socket, and a
process whose layer is down (Redis restarting) still serves its own tables; the listener
tries again, and joins its groups anew, until the layer is back.
"""

import asyncio
import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from django.conf import settings
from django.utils import timezone

from games.live.broadcast import PROCESS, event, group_name, revoked
from games.live.database import database_sync_to_async
from games.live.outage import DATABASE_AWAY
from games.live.owner import LiveTable, act, beat_this_process, database_versions, live_tables, recount_this_process

logger = logging.getLogger(__name__)
RETRY_SECONDS = (0.1, 0.5, 1, 2, 5)
# How often the hub compares its tables' versions with the database, in one query: a change
# whose announcement was lost (the layer was down) reaches the sockets within this time.
CHECK_SECONDS = 2
# Told the table's code after every change delivered to sockets here (games.live.computer_seat wakes
# the computer): the hub knows nothing of what listens.
AFTER_A_CHANGE = []
# Told the table's code whenever its snapshot was found expired (games.live.clock runs out a
# turn clock then).
WHEN_DUE = []


class Hub:
    def __init__(self, layer):
        self.layer = layer
        # A layer that reaches no other process (the in-memory one of the embedded defaults)
        # would only bring back this process's own announcements, to be ignored: the hub then
        # neither sends on it nor listens (that round trip cost about 30 µs of CPU a change).
        self.shared = getattr(layer, "reaches_other_processes", True)
        self.members = {}  # table code → its sockets in this process
        self.channel = None
        self.listener = self.checker = None
        self.database_available = True

    async def join(self, code, socket):
        members = self.members.setdefault(code, set())
        members.add(socket)
        if len(members) == 1:
            await self.start()
            await self.tell_layer(self.layer.group_add, code)

    async def leave(self, code, socket):
        members = self.members.get(code, set())
        members.discard(socket)
        if not members:
            self.members.pop(code, None)
            await self.tell_layer(self.layer.group_discard, code)

    async def start(self):
        if self.checker is None:
            self.checker = asyncio.ensure_future(self.check())
        if self.shared and self.listener is None:
            self.channel = await self.layer.new_channel()
            self.listener = asyncio.ensure_future(self.listen())

    async def tell_layer(self, method, code):
        """Join or leave a table's group; a layer that is down is rejoined by `listen`."""
        if not self.shared:
            return
        try:
            await method(group_name(code), self.channel)
        except Exception:
            logger.warning("channel layer unavailable for table %s", code, exc_info=True)

    async def tell(self, change):
        """A change made in this process: its sockets here now, the other processes through
        the layer. False if the layer failed (logged): the change stands all the same."""
        return await self.send(change.code, event(change))

    async def send(self, code, message):
        self.deliver(code, message)
        if not self.shared:
            return True
        try:
            await self.layer.group_send(group_name(code), message)
        except Exception:
            logger.warning("could not announce %s to table %s", message["type"], code, exc_info=True)
            return False
        return True

    def deliver(self, code, message):
        if message["type"] == "seat.revoked":
            live_tables.forget(code)  # its seats' secrets changed: read them afresh
        for socket in list(self.members.get(code, ())):
            asyncio.ensure_future(socket.hear(message))
        if self.members.get(code):
            for listener in AFTER_A_CHANGE:
                listener(code)

    async def listen(self):
        failures = 0
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                logger.warning("channel layer receive failed; retrying", exc_info=failures == 1)
                await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1])
                await self.rejoin()
                continue
            failures = 0
            if message.get("origin") != PROCESS:
                self.deliver(message["code"], message)

    async def check(self):
        beaten = 0.0
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                if time.monotonic() - beaten >= settings.GAMES_PRESENCE_BEAT_SECONDS:
                    await database_sync_to_async(beat_this_process)()  # this process's sockets still count
                    beaten = time.monotonic()
                await self.catch_up()
            except DATABASE_AWAY:
                self.tell_database(available=False)
            except Exception:
                logger.warning("could not check the tables' versions", exc_info=True)
            else:
                if not self.database_available:
                    await database_sync_to_async(recount_this_process)(self.seated_sockets())
                self.tell_database(available=True)

    def seated_sockets(self):
        """{(table code, seat): how many of its sockets are open here}, the spectators' under
        seat None, counted by viewer (a browser's tabs are one person watching)."""
        counts = {}
        for code, sockets in self.members.items():
            for socket in sockets:
                if socket.seat is not None:
                    counts[code, socket.seat] = counts.get((code, socket.seat), 0) + 1
            viewers = {socket.viewer for socket in sockets if socket.seat is None}
            if viewers:
                counts[code, None] = len(viewers)
        return counts

    def tabs_of(self, code, viewer):
        """How many spectators' sockets of `viewer` (one browser) are open here at table `code`."""
        return sum(1 for socket in self.members.get(code, ()) if socket.seat is None and socket.viewer == viewer)

    def tell_database(self, available):
        """Tell every socket here once when the database goes away, and once when it is back."""
        if available == self.database_available:
            return
        self.database_available = available
        log = logger.info if available else logger.warning
        log("the database is %s", "back" if available else "away")
        for code in list(self.members):
            self.deliver(code, {"type": "database.status", "code": code, "available": available})

    async def catch_up(self):
        """Tell the sockets of every table the database has moved past what they were told,
        show anew a table whose snapshot a clock made old (a claim opening, a crashed
        server's seat counting as away, a turn clock running out), and end the sockets of a table that is gone."""
        codes = list(self.members)
        if not codes:
            return
        versions = await database_sync_to_async(database_versions)(codes)
        for code in codes:
            owner = live_tables.get(code)
            if code not in versions:
                live_tables.forget(code)
                self.deliver(code, {"type": "table.gone", "code": code})
            elif owner is None or owner.snapshot.version < versions[code]:
                self.deliver(code, {"type": "table.changed", "code": code, "version": versions[code]})
            elif owner.snapshot.expires is not None and owner.snapshot.expires <= timezone.now():
                await database_sync_to_async(act)(code, LiveTable.refresh)
                self.deliver(code, {"type": "table.seats", "code": code, "origin": PROCESS})
                for listener in WHEN_DUE:
                    listener(code)

    async def rejoin(self):
        """After an outage the layer may have lost this process's groups (Redis restarted)."""
        for code in list(self.members):
            await self.tell_layer(self.layer.group_add, code)


_hubs = {}


def hub():
    """The hub of the running event loop and the configured layer (tests run several loops)."""
    layer = get_channel_layer()
    key = (id(asyncio.get_running_loop()), id(layer))
    if key not in _hubs:
        _hubs.clear()  # a previous loop's hub has no loop to run on any more
        _hubs[key] = Hub(layer)
    return _hubs[key]


async def tell(change):
    return await hub().tell(change)


def announce(change):
    """From synchronous code (an HTTP view): tell the change on the server's event loop."""
    return async_to_sync(tell)(change)


def revoke(code, seat):
    """From an HTTP view: close every socket holding `seat`'s old secret, in every process."""
    async def send():
        return await hub().send(code, revoked(code, seat))
    return async_to_sync(send)()
