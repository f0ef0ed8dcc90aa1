"""This process's one listener on the channel layer, for all of its tables' sockets.

A change is told to the sockets of the process that made it at once, in memory, and to the
other processes through the channel layer: each process listens on one channel of its own,
which joins the group of every table it has sockets for, and hands what it hears to those
sockets. So a change costs the layer one message per process, not one per socket, and a
process whose layer is down (Redis restarting) still serves its own tables; the listener
tries again, and joins its groups anew, until the layer is back.

A table's sockets are normally all in one process (nginx routes by the table's code), so a
process alone at a table tells the layer nothing. A layer that counts who received a message
(Redis's PUBLISH does) says when nobody else listens to the table; from then on the process
keeps its changes to itself, until another process announces that it joined the table's
group. A process joining a table's group announces itself and waits until it hears its own
announcement (so it listens) and every process that heard it has answered (so each of those
tells the layer again): a change made before an answer was committed before the joining
socket reads its first state, and a change made after it reaches the socket through the layer.
"""

import asyncio
import logging
import time
import uuid

from channels.layers import get_channel_layer

from django.conf import settings
from django.utils import timezone

from games.live import events
from games.live.database import database_sync_to_async
from games.live.events import PROCESS, group_name
from games.live.outage import DATABASE_AWAY
from games.live.owner import RAN_AHEAD
from games.live.tables import beat_this_process, database_versions, live_tables, recount_this_process, refreshed

logger = logging.getLogger(__name__)
RETRY_SECONDS = (0.1, 0.5, 1, 2, 5)
# The hubs' own messages on the layer, never shown to a socket: a process joined a table's
# group, and another one's answer to it.
JOINED, HEARD = "hub.joined", "hub.heard"
# How long a process joining a table's group waits for its announcement to come back and be
# answered, and how many times it announces when it never heard itself (its subscription was
# not in place yet). A process that answers later is caught up by the check of the versions.
ANNOUNCE_SECONDS = 2
ANNOUNCE_ATTEMPTS = 2
# How often the hub compares its tables' versions with the database, in one query: a change
# whose announcement was lost (the layer was down) reaches the sockets within this time.
CHECK_SECONDS = 2
# Events after which this process's copy of the table is dropped: its seats' secrets changed
# (read them afresh), or the table is gone.
FORGET_AFTER = ("seat.revoked", "table.gone")
# Told the table's code after every change delivered to sockets here (games.live.computer_seat wakes
# the computer): the hub knows nothing of what listens.
AFTER_A_CHANGE = []
# A table with this many sockets here is a crowd: its seats' changes (a spectator coming or
# going, most of them) are shown at most once every SEATS_EVERY_SECONDS, the newest alone. A
# thousand spectators arriving one by one were otherwise half a million frames.
CROWD = 20
SEATS_EVERY_SECONDS = 1
# Told the table's code whenever its snapshot was found expired (games.live.clock runs out a
# turn clock then).
WHEN_DUE = []


class Hub:
    def __init__(self, layer, process=PROCESS):
        self.layer, self.process = layer, process
        # A layer that reaches no other process (the in-memory one of the embedded defaults)
        # would only bring back this process's own announcements, to be ignored: the hub then
        # neither sends on it nor listens (a round trip for nothing: docs/performance.md).
        self.shared = getattr(layer, "reaches_other_processes", True)
        self.members = {}  # table code → its sockets in this process
        self.channel = None
        self.listener = self.checker = None
        self.database_available = True
        self.loop = asyncio.get_running_loop()
        self.unsubscribed = set()  # tables whose group the layer refused to join (it was down)
        self.seats_due = {}  # a crowded table's code → its seats' newest change, to be shown soon
        self.alone = set()  # tables whose group no other process listens to: their changes stay here
        self.listening = set()  # tables whose group this process has heard itself announced on
        self.joins_heard = 0  # other processes' announcements heard: a count taken before one is out of date
        self.announcements = {}  # table code → this process's announcement awaiting its answers

    async def join(self, code, socket):
        members = self.members.setdefault(code, set())
        members.add(socket)
        if len(members) == 1:
            await self.start()
            if await self.tell_layer(self.layer.group_add, code):
                await self.announce(code, wait=True)
        elif code in self.announcements:
            await self.announcements[code].settled.wait()  # as the table's first socket here does

    async def leave(self, code, socket):
        members = self.members.get(code, set())
        members.discard(socket)
        if not members:
            self.members.pop(code, None)
            self.forget_peers(code)
            await self.tell_layer(self.layer.group_discard, code)

    async def start(self):
        if self.checker is None:
            self.checker = asyncio.ensure_future(self.check())
        if self.shared and self.listener is None:
            self.channel = await self.layer.new_channel()
            self.listener = asyncio.ensure_future(self.listen())

    async def tell_layer(self, method, code):
        """Join or leave a table's group (True once done); a group the layer is down for is
        joined again at the next check, or by `listen` once it hears again."""
        if not self.shared:
            return False
        joining = method == self.layer.group_add
        try:
            await method(group_name(code), self.channel)
        except Exception:
            logger.warning("channel layer unavailable for table %s", code, exc_info=True)
            if joining:
                self.unsubscribed.add(code)
            return False
        self.unsubscribed.discard(code)
        return True

    def forget_peers(self, code):
        """What this process knew of the others at table `code`: it tells the layer again."""
        self.alone.discard(code)
        self.listening.discard(code)

    async def announce(self, code, wait=False):
        """Tell the processes listening to table `code` that this one does now (on a layer that
        counts who received a message: on another, every change is told anyway); with `wait`,
        until this process hears itself and each of them has answered."""
        if not getattr(self.layer, "counts_receivers", False):
            return
        announcement = self.announcements[code] = Announcement()
        try:
            for _attempt in range(ANNOUNCE_ATTEMPTS if wait else 1):
                announcement.renew()
                count = await self.layer.group_send(group_name(code), self.joined(code, announcement.nonce))
                if wait and await announcement.answered(count - 1, ANNOUNCE_SECONDS):
                    return
            if wait:
                logger.warning("table %s: %s of %s processes answered this one's joining%s", code, announcement.answers,
                               count - 1, "" if announcement.heard else ", which it never heard itself")
        except Exception:
            logger.warning("could not announce this process at table %s", code, exc_info=True)
        finally:
            announcement.settled.set()
            if self.announcements.get(code) is announcement:
                del self.announcements[code]

    def joined(self, code, nonce):
        return {"type": JOINED, "code": code, "origin": self.process, "nonce": nonce}

    async def hear_hub(self, message):
        """Another hub's message, or this one's own announcement come back."""
        code, mine = message["code"], message["origin"] == self.process
        announcement = self.announcements.get(code)
        if message["type"] == JOINED and mine:
            if code in self.members:
                self.listening.add(code)
            if announcement is not None and announcement.nonce == message["nonce"]:
                announcement.heard_itself()
        elif message["type"] == JOINED:
            self.joins_heard += 1
            self.alone.discard(code)
            answer = {"type": HEARD, "code": code, "origin": self.process, "to": message["origin"],
                      "nonce": message["nonce"]}
            await self.layer.group_send(group_name(code), answer)
        elif message["to"] == self.process and announcement is not None and announcement.nonce == message["nonce"]:
            announcement.answer()

    async def send(self, code, message):
        """An event of this process: its sockets here now, the other processes through the
        layer unless none listens. False if the layer failed (logged): the change stands all
        the same."""
        self.deliver(code, message)
        if not self.shared or code in self.alone:
            return True
        joins_heard = self.joins_heard
        try:
            count = await self.layer.group_send(group_name(code), message)
        except Exception:
            logger.warning("could not announce %s to table %s", message["type"], code, exc_info=True)
            return False
        if count == 1 and code in self.listening and joins_heard == self.joins_heard:
            self.alone.add(code)  # the one receiver was this process: nobody else listens
        return True

    def deliver(self, code, message):
        if message["type"] == "table.seats" and len(self.members.get(code, ())) >= CROWD:
            self.deliver_seats_soon(code, message)
            return
        self.deliver_now(code, message)

    def deliver_seats_soon(self, code, message):
        due = self.seats_due.get(code)
        if due is None:
            self.loop.call_later(SEATS_EVERY_SECONDS, lambda: self.deliver_now(code, self.seats_due.pop(code)))
        elif due["origin"] != PROCESS:
            message = {**message, "origin": due["origin"]}  # another process's change: re-read the seats
        self.seats_due[code] = message

    def deliver_now(self, code, message):
        if message["type"] in FORGET_AFTER:
            live_tables.forget(code)
        for socket in list(self.members.get(code, ())):
            asyncio.ensure_future(socket.hear(message))
        if self.members.get(code):
            for listener in AFTER_A_CHANGE:
                try:
                    listener(code)
                except Exception:  # a listener's failure is its own, never the hub's
                    logger.exception("a listener failed after a change at table %s", code)

    def show(self, code, version):
        """Tell the sockets of `code` shown a version older than `version` (this process's
        copy moved on by a read)."""
        message = events.changed(code, version, origin=None)
        for socket in list(self.members.get(code, ())):
            if socket.behind(version):
                asyncio.ensure_future(socket.hear(message))

    def show_soon(self, code, version):
        """`show` from any thread (an owner publishes in the database thread)."""
        if code in self.members:
            try:
                self.loop.call_soon_threadsafe(self.show, code, version)
            except RuntimeError:  # its loop has closed (a test's)
                pass

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
            try:
                if message.get("type") in (JOINED, HEARD):
                    await self.hear_hub(message)
                elif message.get("origin") != self.process:
                    self.deliver(message["code"], message)
            except Exception:  # one bad message must not end the listening
                logger.exception("could not deliver a message from the channel layer")

    async def check(self):
        beaten = 0.0
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.resubscribe()
                if time.monotonic() - beaten >= settings.GAMES_PRESENCE_BEAT_SECONDS:
                    await database_sync_to_async(beat_this_process)()  # this process's sockets still count
                    beaten = time.monotonic()
                await self.catch_up()
                if not self.database_available:
                    await database_sync_to_async(recount_this_process)(self.seated_sockets())
                self.tell_database(available=True)
            except asyncio.CancelledError:
                raise
            except DATABASE_AWAY:
                self.tell_database(available=False)
            except Exception:  # logged, and checked again in CHECK_SECONDS: the task lives on
                logger.warning("could not check the tables' versions", exc_info=True)

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
            self.deliver(code, events.database_status(code, available))

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
                self.deliver(code, events.gone(code))
            elif owner is None or owner.snapshot.version < versions[code] or self.shown_behind(code, versions[code]):
                # Compared with what each socket was shown, not only with this process's copy.
                self.deliver(code, events.changed(code, versions[code], origin=None))
            elif owner.snapshot.expires is not None and owner.snapshot.expires <= timezone.now():
                snapshot = await database_sync_to_async(refreshed)(code)
                self.deliver(code, events.seats(code, snapshot.version))
                for listener in WHEN_DUE:
                    listener(code)

    def shown_behind(self, code, version):
        return any(socket.behind(version) for socket in list(self.members.get(code, ())))

    async def rejoin(self):
        """After an outage the layer may have lost this process's groups (Redis restarted)."""
        for code in list(self.members):
            await self.subscribe_again(code)

    async def resubscribe(self):
        """The groups the layer was down for when their first socket here joined."""
        for code in list(self.unsubscribed):
            if code in self.members:
                await self.subscribe_again(code)
            else:
                self.unsubscribed.discard(code)

    async def subscribe_again(self, code):
        """Join table `code`'s group anew and announce it, without waiting for the answers (the
        listener that hears them may be the caller): until then every change is told."""
        self.forget_peers(code)
        if await self.tell_layer(self.layer.group_add, code):
            await self.announce(code)


class Announcement:
    """A process's announcement that it joined a table's group, and what came of it."""

    def __init__(self):
        self.changed, self.settled = asyncio.Event(), asyncio.Event()

    def renew(self):
        self.nonce, self.answers, self.heard = uuid.uuid4().hex, 0, False

    def heard_itself(self):
        self.heard = True
        self.changed.set()

    def answer(self):
        self.answers += 1
        self.changed.set()

    async def answered(self, others, seconds):
        """True once this process has heard itself and `others` processes have answered;
        False if not within `seconds`."""
        try:
            async with asyncio.timeout(seconds):
                while not (self.heard and self.answers >= others):
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return True


_hubs = {}


def hub():
    """The hub of the running event loop and the configured layer (tests run several loops)."""
    layer = get_channel_layer()
    key = (id(asyncio.get_running_loop()), id(layer))
    if key not in _hubs:
        _hubs.clear()  # a previous loop's hub has no loop to run on any more
        _hubs[key] = Hub(layer)
    return _hubs[key]


def ran_ahead(code, version):
    """An owner's copy moved on by a read, in any thread: its sockets here are shown it."""
    for running in list(_hubs.values()):
        running.show_soon(code, version)


RAN_AHEAD.append(ran_ahead)


async def publish(progress):
    """A committed change's events, to every socket of its table (games.live.batch)."""
    for event in progress.events:
        await hub().send(progress.code, event)
