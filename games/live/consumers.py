"""Thin WebSocket consumers: read a frame, hand it to the table's owner, tell the change.

One way for every change: a frame → one method of the table's owner (games.live.owner), in
the database thread (a move in a batch with the other moves waiting: games.live.moves) → the
Change it returns, told by the hub (games.live.hub) to every socket of the table, the mover's
own included, and to the other processes → each socket sends its reader's state from the
owner's snapshot, in its own page language. No card crosses the channel layer. Refusals are
answered with an error frame and never close the socket; a flood does (games.live.flood).
"""

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
from games.live import clock, computer_seat, hub, limits, moves  # noqa: F401 (clock: listens to the hub)
from games.live import render as table_render
from games.live.broadcast import PROCESS
from games.live.chat import clean_line
from games.live.database import database_sync_to_async
from games.live.flood import FLOOD_CLOSE, RateLimit
from games.live.frames import expected_version, frame_type, json_object
from games.live.outage import CLOSE_TRY_AGAIN, DATABASE_AWAY
from games.live.owner import LiveTable, act, live_tables
from games.live.seats import token_from_cookies, token_from_headers
from games.live.snapshot import encode

logger = logging.getLogger(__name__)

MAX_FRAME_CHARACTERS = 2048
VIEWER_MAX_LENGTH = 64  # a `viewer` cookie longer than table.js makes is no viewer


class TableConsumer(AsyncWebsocketConsumer):
    """What both sockets share; subclasses say how a seat is found and a state is sent."""

    # No channel of its own on the layer: the process's hub (games.live.hub) hears for all its
    # sockets and hands each what concerns its table.
    channel_layer_alias = None
    seat = None
    joined = False
    ended = False
    sent = None  # the snapshot this socket showed last
    sent_text = None  # and the frame it sent for it
    closed = False  # once it is closed, nothing more is sent on it (uvicorn logs each one)

    async def __call__(self, scope, receive, send):
        """Channels' AsyncConsumer.__call__ for a consumer with no channel of its own: its
        messages come from the server alone, so each is awaited and dispatched in turn, as
        Channels' await_many_dispatch does, without the task and the asyncio.wait that helper
        spends on every frame to listen to several sources at once."""
        self.scope, self.channel_layer, self.base_send = scope, None, send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
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
        self.language = self.query_language()
        self.viewer = self.viewer_key()
        self.limit = RateLimit(settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND)
        try:
            self.seat = await database_sync_to_async(act)(self.code, LiveTable.seat_for, self.seat_token())
        except (GameError, *DATABASE_AWAY) as refused:
            # Accept first: a close before accept() is an HTTP 403 handshake refusal,
            # which a browser sees as 1006, so table.js could not tell it from an outage.
            await self.accept()
            await self.close(code=4404 if isinstance(refused, GameError) else CLOSE_TRY_AGAIN)
            return
        await self.accept()
        await hub.hub().join(self.code, self)
        self.joined = True
        try:
            await self.arrive()
        except GameError as error:
            if error.code != "unknown_table":
                raise
            # The cleanup deleted the table while this socket was arriving: the hub's check
            # would find it gone only after this socket had crashed.
            await self.table_gone(None)
            return
        computer_seat.wake(self.code)  # a computer left waiting (the server restarted) moves now

    def viewer_key(self):
        """Who watches through this socket: the browser's `viewer` cookie (table.js sets it;
        not a secret, it only tells a browser's tabs apart from other people), else the socket."""
        viewer = self.scope.get("cookies", {}).get("viewer", "")
        return viewer if 0 < len(viewer) <= VIEWER_MAX_LENGTH else f"socket-{id(self)}"

    def counts_as_a_person(self):
        """A seat's socket counts; a spectator's only as their browser's first (or last) tab here."""
        return self.seat is not None or hub.hub().tabs_of(self.code, self.viewer) == (1 if not self.ended else 0)

    async def arrive(self):
        # Everyone re-renders the opponent's presence (or the number watching); this socket's
        # first state is the one its arrival published (the hub's telling of it then adds nothing).
        if self.counts_as_a_person():
            await self.tell(LiveTable.arrive, self.seat)
        owner = live_tables.get(self.code)
        if self.seat is not None and owner is not None:
            await self.send_snapshot(owner.snapshot)
        else:
            await self.send_snapshot(await database_sync_to_async(act)(self.code, LiveTable.refresh))

    async def disconnect(self, close_code):
        await self.end()

    async def close(self, code=None, reason=None):
        if not self.closed:
            self.closed = True
            await super().close(code=code, reason=reason)

    async def send(self, text_data=None, bytes_data=None, close=False):
        # Frames already on their way and the table's changes still reach a closed socket
        # until its client has gone: none of them is answered.
        if self.closed:
            return
        try:
            await super().send(text_data, bytes_data, close)
        except OSError:
            # Its client went away before the disconnect reached this consumer (the hub was
            # telling it a change meanwhile): the server says so with an OSError, as ASGI has
            # it. The disconnect follows and ends the socket; nothing is owed to a gone client.
            self.closed = True

    async def end(self):
        """Leave the table once, whether the socket closed or crashed."""
        if self.ended:
            return
        self.ended = True
        if not self.joined:
            return
        await hub.hub().leave(self.code, self)
        if not self.counts_as_a_person():
            return  # another tab of this spectator's still watches here
        try:
            await self.tell(LiveTable.leave, self.seat)
        except DATABASE_AWAY:  # its count is left behind; the presence's heartbeat ages it out
            logger.warning("leaving table %s, seat %s: the database is away", self.code, self.seat)
        except GameError as error:
            if error.code != "unknown_table":
                raise
            # The cleanup deleted the table under this socket: there is nothing to leave.

    async def tell(self, change, *args):
        """One change of the owner's, then told to every socket of the table (None: nothing
        changed, nothing to tell)."""
        told = await database_sync_to_async(act)(self.code, change, *args)
        if told is not None:
            await hub.tell(told)

    async def receive(self, text_data=None, bytes_data=None):
        if self.closed:
            return  # a frame sent before its client heard the close: neither played nor answered
        try:
            frame = self.parse(text_data, bytes_data)
            await self.handler_for(frame)(frame)
        except GameError as error:
            if error.code == "rate_limited" and self.limit.flooding():
                # It keeps sending past its limit: no more answers, which it may not read.
                await self.close(code=FLOOD_CLOSE)
                return
            await self.send_error(error)
            if error.code == "stale":
                self.forget_sent()  # the fresh state follows, even if this socket showed it
                await self.send_current()
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

    def forget_sent(self):
        """The next state is sent whole, whatever this socket sent before."""
        self.sent = self.sent_text = None

    async def send_current(self):
        """The table as the database has it now; as this process last showed it while the
        database is away."""
        try:
            await self.send_snapshot(await database_sync_to_async(act)(self.code, LiveTable.catch_up))
        except DATABASE_AWAY:
            owner = live_tables.get(self.code)
            if owner is not None:
                await self.send_snapshot(owner.snapshot)

    def parse(self, text_data, bytes_data):
        # Every frame counts against the limit, before anything else is looked at.
        if not self.limit.allow():
            raise GameError("rate_limited")
        if text_data is None:
            raise GameError("malformed")
        if len(text_data) > MAX_FRAME_CHARACTERS:
            raise GameError("too_large")
        return json_object(text_data)

    def handler_for(self, frame):
        handler = self.handlers().get(frame_type(frame))
        if handler is None:
            raise GameError("unknown_type")
        return handler

    def handlers(self):
        return {"move": self.on_move, "next_hand": self.on_next_hand, "rematch": self.on_rematch,
                "resign": self.on_resign, "claim": self.on_claim, "chat": self.on_chat}

    async def on_move(self, frame):
        move = frame.get("move")
        if not isinstance(move, str):
            raise GameError("malformed")
        version = expected_version(frame)
        self.refuse_without_the_database(version)
        await hub.tell(await moves.play(self.code, self.seat, move, version))

    def refuse_without_the_database(self, version):
        """What this process already knows is refused costs no database work: a spectator's
        move, a move chosen at a version it has shown to be old, a move out of turn."""
        if self.seat is None:
            raise GameError("spectator")
        owner = live_tables.get(self.code)
        shown = owner.snapshot if owner is not None else None
        if shown is None or version is None:
            return
        if version < shown.version:
            raise GameError("stale")
        if version == shown.version and shown.to_move is not None and shown.to_move != self.seat:
            raise GameError("not_your_turn")

    # "next_hand" and "rematch" ignore any version: readiness is idempotent.
    async def on_next_hand(self, frame):
        await self.change(LiveTable.press_next_hand)

    async def on_rematch(self, frame):
        await self.change(LiveTable.press_rematch)

    async def on_resign(self, frame):
        await self.change(LiveTable.resign)

    async def on_claim(self, frame):
        await self.change(LiveTable.claim)

    async def on_chat(self, frame):
        """A chat line: stored, then told to the table as itself; the version stays. What is
        sure to be refused is refused here, on the event loop."""
        if self.seat is None:
            raise GameError("spectator")
        text = clean_line(frame.get("text"))
        owner = live_tables.get(self.code)
        if owner is not None and not owner.may_chat(self.seat):
            raise GameError("rate_limited")
        event = await database_sync_to_async(act)(self.code, LiveTable.say, self.seat, text)
        await hub.hub().send(self.code, event)

    async def change(self, change, *args):
        if self.seat is None:
            raise GameError("spectator")
        await self.tell(change, self.seat, *args)

    async def hear(self, message):
        """What the hub heard about this table; a failure is this socket's alone."""
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
        owner = live_tables.get(self.code)
        if owner is not None and owner.snapshot.version >= version:
            await self.send_snapshot(owner.snapshot)
        else:
            await self.send_snapshot(await database_sync_to_async(act)(self.code, LiveTable.catch_up, version))

    async def table_seats(self, event):
        """Presence or readiness changed; another process's change means re-reading the seats."""
        owner = live_tables.get(self.code)
        if event["origin"] == PROCESS and owner is not None:
            await self.send_snapshot(owner.snapshot)
        else:
            await self.send_snapshot(await database_sync_to_async(act)(self.code, LiveTable.refresh))

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
        owner = live_tables.get(self.code)
        if event["available"] and owner is not None:
            await self.send_snapshot(owner.snapshot)  # refreshed by the hub's recount

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

    def handlers(self):
        return {**super().handlers(), "sort": self.on_sort}

    async def on_sort(self, frame):
        self.sort = table_render.clean_sort(frame.get("by"))
        self.order = table_render.clean_order(frame.get("order"))
        shown = self.sent
        self.forget_sent()  # answered with a state, changed or not
        if shown is not None:
            await self.send_snapshot(shown)
        else:
            await self.send_current()

    async def on_move(self, frame):
        """A person's control acts only on a state they have had on screen for a moment:
        a double tap must not play the move that appeared under the finger (a bot's
        socket, the API's, is not held back)."""
        if frame.get("version") == self.shown_version and time.monotonic() - self.shown_at < settings.GAMES_MIN_SEEN_SECONDS:
            raise GameError("too_soon")
        await super().on_move(frame)

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
