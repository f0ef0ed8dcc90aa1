"""Thin WebSocket consumers: read a frame, send its command, show the events.

One way for every change (docs/live-table.md): a frame → its command (games.live.frames) →
the one way in (games.live.batch), which has the table's owner apply it in the database
thread and, once committed, publishes its events through the hub (games.live.hub) to every
socket of the table, the sender's own included, and to the other processes → each socket
sends its reader's state from the owner's snapshot, in its own page language. No card crosses
the channel layer. Refusals are answered with an error frame and never close the socket; a
flood does (games.live.flood).
"""

import asyncio
import enum
import logging
import time
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from django.conf import settings
from django.utils import translation

from games.display.messages import message
from games.errors import GameError
from games.live import batch, clock, computer_seat, hub, limits  # noqa: F401 (clock: listens to the hub)
from games.live import render as table_render
from games.live.commands import Arrive, Leave, Play, Say
from games.live.database import database_sync_to_async
from games.live.events import PROCESS
from games.live.flood import Flooding, RateLimit
from games.live.frames import command_for, frame_type, json_object
from games.live.outage import CLOSE_TRY_AGAIN, DATABASE_AWAY
from games.live.tables import caught_up, live_tables, refreshed, seat_for, shown
from games.live.seats import token_from_cookies, token_from_headers
from games.live.snapshot import encode

logger = logging.getLogger(__name__)

MAX_FRAME_CHARACTERS = 2048
# Messages of different kinds (chat lines, each) that may wait for a socket still sending.
HELD_MESSAGES = 50


class Life(enum.Enum):
    """Where a socket is in its life; `TableConsumer.become` checks each step."""

    CONNECTING = "connecting"  # the handshake: its seat being found
    ARRIVING = "arriving"  # among the table's sockets, its first state not sent yet
    OPEN = "open"  # shown every change as it comes
    CLOSING = "closing"  # closed by the server (or its client gone) while at the table: nothing more is sent
    REFUSED = "refused"  # closed before it reached the table
    ENDED = "ended"  # left the table: its presence given back


STEPS = {
    Life.CONNECTING: {Life.ARRIVING, Life.REFUSED, Life.ENDED},
    Life.ARRIVING: {Life.OPEN, Life.CLOSING, Life.ENDED},
    Life.OPEN: {Life.CLOSING, Life.ENDED},
    Life.CLOSING: {Life.ENDED},
    Life.REFUSED: {Life.ENDED},
    Life.ENDED: set(),
}
AT_THE_TABLE = (Life.ARRIVING, Life.OPEN, Life.CLOSING)
SILENT = (Life.CLOSING, Life.REFUSED, Life.ENDED)  # nothing more is sent (uvicorn logs each one)
# Events that show a state: none before the socket's first, which its arrival proved current.
SHOW_A_STATE = ("table.changed", "table.seats", "database.status")
VIEWER_MAX_LENGTH = 64  # a `viewer` cookie longer than table.js makes is no viewer


class TableConsumer(AsyncWebsocketConsumer):
    """What both sockets share; subclasses say how a seat is found and a state is sent."""

    # No channel of its own on the layer: the process's hub (games.live.hub) hears for all its
    # sockets and hands each what concerns its table.
    channel_layer_alias = None
    seat = None
    life = Life.CONNECTING
    sent = None  # the snapshot this socket showed last
    sent_text = None  # and the frame it sent for it
    counted = None  # the games.live.limits.Address it counts against, until it ends
    abandoned = False  # its client took no frame for GAMES_WS_SEND_TIMEOUT_SECONDS
    hearing = False  # a change is being shown to it; those heard meanwhile wait in `held`
    held = None

    def become(self, life):
        if life not in STEPS[self.life]:
            raise RuntimeError(f"a socket cannot go from {self.life.value} to {life.value}")
        self.life = life

    async def __call__(self, scope, receive, send):
        """Channels' AsyncConsumer.__call__ for a consumer with no channel of its own: its
        messages come from the server alone, so each is awaited and dispatched in turn, as
        Channels' await_many_dispatch does, without the task and the asyncio.wait that helper
        spends on every frame to listen to several sources at once."""
        self.scope, self.channel_layer, self.base_send = scope, None, send
        self.task = asyncio.current_task()
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        except asyncio.CancelledError:
            if not self.abandoned:
                raise
            # Returning ends the connection: uvicorn closes it, as nothing sent would arrive.
        finally:
            # However the socket ends, a crash included, its seat's presence ends with it.
            await self.end()

    async def dispatch(self, message):
        """Channels' dispatch without its close_old_connections() before every message: that
        is a hop to the database thread which, with CONN_MAX_AGE = 0, closes the connection
        live play keeps there (games.live.database) only for the next call to open it again —
        most of a move's cost. The kept connection is closed when it broke, as before."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        if not await limits.admit_socket(self):
            return
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.address = limits.client_address(self.scope)
        refused = limits.refusal(self.address, self.code)
        if refused:
            await self.accept()
            await self.close(code=limits.CLOSE_RATE_LIMITED, reason=refused)
            return
        self.counted = limits.take_socket(self.address, self.code)
        self.language = self.query_language()
        self.viewer = self.viewer_key()
        self.limit = RateLimit(settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND)
        try:
            self.seat = await database_sync_to_async(seat_for)(self.code, self.seat_token())
        except (GameError, *DATABASE_AWAY) as refused:
            # Accept first: a close before accept() is an HTTP 403 handshake refusal,
            # which a browser sees as 1006, so table.js could not tell it from an outage.
            await self.accept()
            await self.close(code=4404 if isinstance(refused, GameError) else CLOSE_TRY_AGAIN)
            return
        await self.accept()
        await hub.hub().join(self.code, self)
        self.become(Life.ARRIVING)
        try:
            await self.arrive()
        except GameError as error:
            if error.code != "unknown_table":
                raise
            # The cleanup deleted the table while this socket was arriving: the hub's check
            # would find it gone only after this socket had crashed.
            await self.table_gone(None)
            return
        except DATABASE_AWAY:
            # A table held here finds its seat in memory, but arriving writes: try again later.
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        computer_seat.wake(self.code)  # a computer left waiting (the server restarted) moves now

    def viewer_key(self):
        """Who watches through this socket: the browser's `viewer` cookie (table.js sets it;
        not a secret, it only tells a browser's tabs apart from other people), else the socket."""
        viewer = self.scope.get("cookies", {}).get("viewer", "")
        return viewer if 0 < len(viewer) <= VIEWER_MAX_LENGTH else f"socket-{id(self)}"

    def counts_as_a_person(self):
        """A seat's socket counts; a spectator's only as their browser's first (or last) tab here."""
        return self.seat is not None or hub.hub().tabs_of(self.code, self.viewer) == (1 if self.life is not Life.ENDED else 0)

    async def arrive(self):
        # Everyone re-renders the opponent's presence (or the number watching); this socket's
        # first state is the one its arrival published, caught up with the database (the
        # hub's telling of it then adds nothing).
        if self.counts_as_a_person():
            await batch.send(self.code, Arrive(self.seat))
        await self.send_snapshot(shown(self.code) or await database_sync_to_async(refreshed)(self.code))
        if self.life is Life.ARRIVING:
            self.become(Life.OPEN)

    async def disconnect(self, close_code):
        await self.end()

    async def close(self, code=None, reason=None):
        if self.life not in SILENT:
            self.become_silent()
            await super().close(code=code, reason=reason)

    def become_silent(self):
        self.become(Life.CLOSING if self.life in AT_THE_TABLE else Life.REFUSED)

    async def send(self, text_data=None, bytes_data=None, close=False):
        # Frames already on their way and the table's changes still reach a closed socket
        # until its client has gone: none of them is answered.
        if self.life in SILENT:
            return
        try:
            async with asyncio.timeout(settings.GAMES_WS_SEND_TIMEOUT_SECONDS):  # no task a frame, as wait_for
                await super().send(text_data, bytes_data, close)
        except TimeoutError:
            self.abandon()
        except OSError:
            # Its client went away before the disconnect reached this consumer (the hub was
            # telling it a change meanwhile): the server says so with an OSError, as ASGI has
            # it. The disconnect follows and ends the socket; nothing is owed to a gone client.
            if self.life not in SILENT:
                self.become_silent()

    def abandon(self):
        """Its client reads nothing: end the connection without a word, which it would not read."""
        logger.info("a socket at table %s took no frame for %s s: ended", self.code, settings.GAMES_WS_SEND_TIMEOUT_SECONDS)
        self.abandoned = True
        if self.life not in SILENT:
            self.become_silent()
        self.task.cancel()

    async def end(self):
        """Leave the table once, whether the socket closed or crashed."""
        if self.life is Life.ENDED:
            return
        was = self.life
        self.become(Life.ENDED)
        if self.counted:
            limits.release_socket(self.counted, self.code)
        if was not in AT_THE_TABLE:
            return
        await hub.hub().leave(self.code, self)
        if not self.counts_as_a_person():
            return  # another tab of this spectator's still watches here
        try:
            await batch.send(self.code, Leave(self.seat))
        except DATABASE_AWAY:  # its count is left behind; the presence's heartbeat ages it out
            logger.warning("leaving table %s, seat %s: the database is away", self.code, self.seat)
        except GameError as error:
            if error.code != "unknown_table":
                raise
            # The cleanup deleted the table under this socket: there is nothing to leave.

    async def receive(self, text_data=None, bytes_data=None):
        if self.life in SILENT:
            return  # a frame sent before its client heard the close: neither played nor answered
        try:
            frame = self.parse(text_data, bytes_data)
            local = self.local_frames().get(frame_type(frame))
            if local is not None:
                await local(frame)
            else:
                await self.send_command(command_for(frame, self.seat))
        except Flooding:
            # No answer, which a flooding client may not read: closed at once.
            await self.close(code=limits.CLOSE_RATE_LIMITED, reason=limits.TOO_MANY_FRAMES)
        except GameError as error:
            await self.send_error(error)
            if error.code == "stale":
                self.forget_sent()  # the fresh state follows, even if this socket showed it
                await self.send_current()
            else:
                await self.show_if_behind()  # a refusal may have caught the owner up
        except DATABASE_AWAY:
            # Nothing was written: the move is kept in nobody's head as done; the player may
            # try again, and the page says the server is having trouble until it is back.
            logger.warning("a frame at table %s met the database away", self.code)
            await self.send_error(GameError("database_unavailable"))
        except Exception:
            # A bug must not close the table for this player: the transaction rolled
            # back, so say so and carry on with the current state.
            logger.exception("frame failed at table %s", self.code)
            await self.send_error(GameError("server_error"))
            await self.send_current()

    def behind(self, version):
        """Whether this socket was shown a version older than `version` (one still arriving
        is shown the current state by its arrival)."""
        return self.sent is not None and self.sent.version < version

    async def show_if_behind(self):
        snapshot = shown(self.code)
        if snapshot is not None and self.behind(snapshot.version):
            await self.send_snapshot(snapshot)

    def forget_sent(self):
        """The next state is sent whole, whatever this socket sent before."""
        self.sent = self.sent_text = None

    async def send_current(self):
        """The table as the database has it now; as this process last showed it while the
        database is away."""
        try:
            await self.send_snapshot(await database_sync_to_async(caught_up)(self.code))
        except DATABASE_AWAY:
            snapshot = shown(self.code)
            if snapshot is not None:
                await self.send_snapshot(snapshot)

    def parse(self, text_data, bytes_data):
        # Every frame counts against the limits, before anything else is looked at.
        if not (self.limit.allow() and limits.frame_allowed(self.address)):
            raise Flooding()
        if text_data is None:
            raise GameError("malformed")
        if len(text_data) > MAX_FRAME_CHARACTERS:
            raise GameError("too_large")
        return json_object(text_data)

    def local_frames(self):
        """Frames this socket answers itself, changing no table (see games.live.frames.COMMANDS
        for those that do)."""
        return {}

    async def send_command(self, command):
        self.refuse_early(command)
        await batch.send(self.code, command)

    def refuse_early(self, command):
        """What this process already knows is refused costs no database work: a move chosen
        at a version it has shown to be old, a move out of turn, a chat line too soon."""
        if isinstance(command, Say):
            self.refuse_chat_early(command.seat)
        if not isinstance(command, Play):
            return
        shown_now = shown(self.code)
        if shown_now is None or command.version is None:
            return
        if command.version < shown_now.version:
            raise GameError("stale")
        if command.version == shown_now.version and shown_now.to_move is not None and shown_now.to_move != self.seat:
            raise GameError("not_your_turn")

    def refuse_chat_early(self, seat):
        owner = live_tables.get(self.code)
        if owner is not None and not owner.may_chat(seat):
            raise GameError("rate_limited")

    async def hear(self, message):
        """What the hub heard about this table, shown in turn: heard while a frame is still on
        its way to a client that reads slowly, it waits, and only the newest of each kind."""
        if self.hearing:
            self.hold(message)
            return
        self.hearing = True
        try:
            while message is not None and self.life not in SILENT:
                await self.show(message)
                message = self.next_held()
        finally:
            self.hearing = False

    def hold(self, message):
        self.held = self.held or {}
        kind = message["type"]
        key = (kind, message["id"]) if kind == "table.chat" else kind
        earlier = self.held.get(key)
        if kind == "table.changed" and earlier is not None and earlier["version"] > message["version"]:
            return
        self.held[key] = message
        if len(self.held) > HELD_MESSAGES:
            self.abandon()  # chat lines pile up for a client that reads nothing

    def next_held(self):
        if not self.held:
            return None
        return self.held.pop(next(iter(self.held)))

    async def show(self, message):
        """One message of the hub's; a failure is this socket's alone."""
        if self.life is not Life.OPEN and message["type"] in SHOW_A_STATE:
            return  # before its first state, which its arrival proves current; or after its close
        try:
            handler = {"table.changed": self.table_changed, "table.seats": self.table_seats,
                       "seat.revoked": self.seat_revoked, "table.chat": self.table_chat,
                       "table.gone": self.table_gone, "database.status": self.database_status}[message["type"]]
            await handler(message)
        except DATABASE_AWAY:
            logger.warning("could not show a change at table %s: the database is away", self.code)
        except Exception:
            logger.exception("could not show a change at table %s", self.code)

    async def table_changed(self, event):
        """The game moved on: show it from the owner, caught up from the database first when
        another process made the change (once for every socket of the table here)."""
        version = event["version"]
        if self.sent is not None and self.sent.version >= version:
            return  # an older announcement arriving late
        snapshot = shown(self.code)
        if snapshot is not None and snapshot.version >= version:
            await self.send_snapshot(snapshot)
        else:
            await self.send_snapshot(await database_sync_to_async(caught_up)(self.code, version))

    async def table_seats(self, event):
        """Presence or readiness changed; another process's change means re-reading the seats."""
        snapshot = shown(self.code)
        if event["origin"] == PROCESS and snapshot is not None:
            await self.send_snapshot(snapshot)
        else:
            await self.send_snapshot(await database_sync_to_async(refreshed)(self.code))

    async def table_chat(self, event):
        await self.send(text_data=encode({key: event[key] for key in ("id", "seat", "name", "text")} | {"type": "chat"}))

    async def table_gone(self, event):
        """The table was ended by the cleanup (games.live.cleanup) under this socket."""
        await self.send_error(GameError("table_gone"))
        await self.close(code=4404)

    async def database_status(self, event):
        """The hub found the database away, or back: say so (the page shows it), and once it
        is back show the table as it is now."""
        with translation.override(self.language):
            text = message("database_unavailable") if not event["available"] else ""
        await self.send(text_data=encode({"type": "status", "database": event["available"], "message": text}))
        snapshot = shown(self.code)
        if event["available"] and snapshot is not None:
            await self.send_snapshot(snapshot)  # refreshed by the hub's recount

    async def seat_revoked(self, event):
        # The seat's secret was renewed (games.live.views.revoke): this socket's is the old one.
        if event["seat"] == self.seat:
            await self.close(code=4401)

    async def send_snapshot(self, snapshot):
        """Each snapshot once, never an older one after a newer."""
        if self.sent is not None and (snapshot.serial <= self.sent.serial or snapshot.version < self.sent.version):
            return
        self.sent = snapshot
        text = self.render(snapshot)
        if text is None or text == self.sent_text:
            return  # looked at anew (a clock ran out), and nothing this reader sees changed
        self.sent_text = text
        await self.send(text_data=text)

    async def send_error(self, error):
        with translation.override(self.language):
            text = message(error.code, error.reason)
        payload = {"type": "error", "code": error.code, "message": text}
        if error.reason:
            payload["reason"] = error.reason
        await self.send(text_data=encode(payload))

    def query_language(self):
        language = self.query_value("lang")
        return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

    def query_value(self, key):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return (query.get(key) or [""])[0]


class BrowserTableConsumer(TableConsumer):
    """The table page's socket: the seat comes from the cookie; states arrive as HTML."""

    # The version this socket last showed, and when (a move must not act on it sooner).
    shown_version, shown_at = None, 0.0
    # The keys of the fragments this socket's page shows (games.live.render.LiveView): a
    # frame carries only those that changed; None: the next frame is the whole table.
    shown_keys = None
    sent_version = None

    def seat_token(self):
        return token_from_cookies(self.scope.get("cookies", {}), self.code)

    async def connect(self):
        self.sort = table_render.clean_sort(self.query_value("sort"))
        self.order = table_render.clean_order(self.query_value("order"))
        await super().connect()

    def local_frames(self):
        return {"sort": self.on_sort}

    async def on_sort(self, frame):
        self.sort = table_render.clean_sort(frame.get("by"))
        self.order = table_render.clean_order(frame.get("order"))
        shown = self.sent
        self.forget_sent()  # answered with a state, changed or not
        if shown is not None:
            await self.send_snapshot(shown)
        else:
            await self.send_current()

    def refuse_early(self, command):
        """A person's control acts only on a state they have had on screen for a moment:
        a double tap must not play the move that appeared under the finger (a bot's
        socket, the API's, is not held back)."""
        if isinstance(command, Play) and command.version == self.shown_version \
                and time.monotonic() - self.shown_at < settings.GAMES_MIN_SEEN_SECONDS:
            raise GameError("too_soon")
        super().refuse_early(command)

    def render(self, snapshot):
        with translation.override(self.language):
            return self.render_in_language(snapshot)

    def render_in_language(self, snapshot):
        if snapshot.version != self.shown_version:
            # The socket's first state is the one the page already showed: not new to the player.
            first = self.shown_version is None
            self.shown_version, self.shown_at = snapshot.version, 0.0 if first else time.monotonic()
        view = self.view_of(snapshot)
        html = view.frame(self.shown_keys)
        whole = html is None
        if whole:
            html = view.whole()
        elif view.keys == self.shown_keys and snapshot.version == self.sent_version:
            return None  # nothing this page shows has changed
        self.shown_keys, self.sent_version = view.keys, snapshot.version
        return encode({"type": "state", "version": snapshot.version, "whole": whole, "html": html})

    def view_of(self, snapshot):
        """This reader's view of the snapshot, built once for every socket showing it alike."""
        key = (self.seat, self.sort, tuple(self.order), self.language)
        view = snapshot.views.get(key)
        if view is None:
            view = snapshot.views[key] = table_render.LiveView(snapshot.state_for(self.seat), self.sort, self.order)
        return view

    def forget_sent(self):
        super().forget_sent()
        self.shown_keys = None


class ApiTableConsumer(TableConsumer):
    """The programs' socket: the seat comes from `Authorization: Bearer`; states are JSON."""

    def seat_token(self):
        return token_from_headers(self.scope.get("headers", []))

    def render(self, snapshot):
        return snapshot.json_for(self.seat)
