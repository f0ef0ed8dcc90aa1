"""Thin WebSocket consumers: parse a frame, call one service, tell the change.

A change is told as `{"type": "table.changed", "version": N}` (games.live.hub); every socket then
sends its own seat's state from this process's room (games.live.rooms), in its own page language,
reading the database only when the room is behind. No card crosses the channel layer.
Refusals are answered with an error frame and never close the socket.
"""

import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games.live.database import database_sync_to_async
from games.live import broadcast, hub, limits, computer_seat, rooms, services
from games.live import render as table_render
from games.errors import GameError
from games.display.messages import message
from games.live.seats import token_from_cookies, token_from_headers
from games.live.snapshot import PRESENCE_HEARTBEAT

logger = logging.getLogger(__name__)

MAX_FRAME_CHARACTERS = 2048
# A token bucket per connection (settings GAMES_WS_RATE_BURST, GAMES_WS_RATE_PER_SECOND): a
# flood gets error frames instead of database work.


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


class TableConsumer(AsyncWebsocketConsumer):
    """What both sockets share; subclasses say how a seat is found and a state is sent."""

    # No channel of its own on the layer: the process's hub (games.live.hub) hears for all its
    # sockets and hands each what concerns its table.
    channel_layer_alias = None
    seat = None
    joined = False
    heartbeat = None
    ended = False
    sent = None  # the snapshot this socket showed last
    closed = False  # once it is closed, nothing more is sent on it (uvicorn logs each one)

    async def __call__(self, scope, receive, send):
        # However the socket ends, a crash included, its seat's presence ends with it.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end()

    async def connect(self):
        if not await limits.admit_socket(self):
            return
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.language = self.query_language()
        self.limit = RateLimit(settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND)
        try:
            self.seat = await database_sync_to_async(rooms.find_seat)(self.code, self.seat_token())
        except GameError:
            # Accept first: a close before accept() is an HTTP 403 handshake refusal,
            # which a browser sees as 1006, so table.js could not tell it from an outage.
            await self.accept()
            await self.close(code=4404)
            return
        await self.accept()
        await hub.hub().join(self.code, self)
        self.joined = True
        if self.seat is not None:
            change = await database_sync_to_async(services.set_presence)(self.code, self.seat, True)
            self.heartbeat = asyncio.create_task(self.beat())
            # Everyone re-renders the opponent's presence.
            await hub.tell(change)
        await self.send_latest()
        computer_seat.wake(self.code)  # a computer left waiting (the server restarted) moves now

    async def beat(self):
        while True:
            await asyncio.sleep(PRESENCE_HEARTBEAT)
            await self.touch()

    async def touch(self):
        """One heartbeat. A failure (SQLite busy, a lost database connection) is logged and
        the next beat tries again: an exception escaping would end the task silently and
        show the seat offline for as long as the socket stays open."""
        try:
            await database_sync_to_async(services.touch_presence)(self.code, self.seat)
        except Exception:
            logger.exception("heartbeat failed at table %s, seat %s", self.code, self.seat)

    async def disconnect(self, close_code):
        await self.end()

    async def close(self, code=None, reason=None):
        if not self.closed:
            self.closed = True
            await super().close(code=code, reason=reason)

    async def send(self, text_data=None, bytes_data=None, close=False):
        # Frames already on their way and the table's changes still reach a closed socket
        # until its client has gone: none of them is answered.
        if not self.closed:
            await super().send(text_data, bytes_data, close)

    async def end(self):
        """Leave the table once, whether the socket closed or crashed."""
        if self.ended:
            return
        self.ended = True
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if not self.joined:
            return
        await hub.hub().leave(self.code, self)
        if self.seat is not None:
            change = await database_sync_to_async(services.set_presence)(self.code, self.seat, False)
            await hub.tell(change)

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
                self.sent = None  # the fresh state follows, even if this socket showed it
                await self.send_latest()
        except Exception:
            # A bug must not close the table for this player: the transaction rolled
            # back, so say so and carry on with the current state.
            logger.exception("frame failed at table %s", self.code)
            await self.send_error(GameError("server_error"))
            await self.send_latest()

    def parse(self, text_data, bytes_data):
        # Every frame counts against the limit, before anything else is looked at.
        if not self.limit.allow():
            raise GameError("rate_limited")
        if text_data is None:
            raise GameError("malformed")
        if len(text_data) > MAX_FRAME_CHARACTERS:
            raise GameError("too_large")
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: brackets nested too deep
            raise GameError("malformed") from None
        if not isinstance(frame, dict):
            raise GameError("malformed")
        return frame

    def handler_for(self, frame):
        # A list or dict as "type" would make the dict lookup raise TypeError: a
        # client could fill the log with tracebacks.
        kind = frame.get("type")
        handler = self.handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise GameError("unknown_type")
        return handler

    def handlers(self):
        return {"move": self.on_move, "next_hand": self.on_next_hand, "rematch": self.on_rematch,
                "resign": self.on_resign, "claim": self.on_claim, "chat": self.on_chat}

    async def on_resign(self, frame):
        await self.change(services.resign)

    async def on_claim(self, frame):
        await self.change(services.claim_abandoned)

    async def on_chat(self, frame):
        """A chat line: stored, then sent to the group as itself; the version stays."""
        event = await database_sync_to_async(chat_event)(self.code, self.seat, frame.get("text"))
        await hub.hub().send(self.code, event)

    async def table_chat(self, event):
        await self.send(text_data=json.dumps({key: event[key] for key in ("id", "seat", "name", "text")} | {"type": "chat"}))

    async def on_move(self, frame):
        move = frame.get("move")
        if not isinstance(move, str):
            raise GameError("malformed")
        version = expected_version(frame)
        self.refuse_without_the_database(version)
        await self.change(services.play_move, move, version)

    def refuse_without_the_database(self, version):
        """What this process already knows is refused costs no database work: a spectator's
        move, a move chosen at a version it has shown to be old, a move out of turn."""
        if self.seat is None:
            raise GameError("spectator")
        room = rooms.rooms.get(self.code)
        shown = room.snapshot if room is not None else None
        if shown is None or version is None:
            return
        if version < shown.version:
            raise GameError("stale")
        if version == shown.version and shown.to_move is not None and shown.to_move != self.seat:
            raise GameError("not_your_turn")

    # "next_hand" and "rematch" ignore any version: readiness is idempotent.
    async def on_next_hand(self, frame):
        await self.change(services.ready_for_next_hand)

    async def on_rematch(self, frame):
        await self.change(services.rematch)

    async def change(self, operation, *args):
        if self.seat is None:
            raise GameError("spectator")
        change = await database_sync_to_async(operation)(self.code, self.seat, *args)
        if change is None:
            return  # nothing changed (a second press)
        # The change has committed: its player sees it at once, from this process's room,
        # and a failed announcement (logged by the hub) is no refusal.
        await self.send_snapshot(await self.snapshot_at_least(change.version or 0))
        await hub.tell(change)

    async def hear(self, message):
        """What the hub heard about this table; a failure is this socket's alone."""
        try:
            handler = {"table.changed": self.table_changed, "table.seats": self.table_seats,
                       "seat.revoked": self.seat_revoked, "table.chat": self.table_chat}[message["type"]]
            await handler(message)
        except Exception:
            logger.exception("could not show a change at table %s", self.code)

    async def table_changed(self, event):
        """The game moved on: show it, from the room when this process made the change,
        else caught up from the database once for every socket of the table here."""
        version = event["version"]
        if self.sent is not None and self.sent.version >= version:
            return  # an older announcement arriving late, or this socket's own change
        await self.send_snapshot(await self.snapshot_at_least(version))

    async def seat_revoked(self, event):
        # The seat's secret was renewed (games.live.views.revoke): this socket's is the old one.
        if event["seat"] == self.seat:
            await self.close(code=4401)

    async def snapshot_at_least(self, version):
        """The room's snapshot when this process holds it at `version` or later (no thread,
        no database), else caught up or built in the database thread."""
        room = rooms.rooms.get(self.code)
        if room is not None and room.snapshot.version >= version:
            return room.snapshot
        return await database_sync_to_async(rooms.snapshot_at_least)(self.code, version)

    async def table_seats(self, event):
        """Presence or readiness changed; another process's change means re-reading the seats."""
        room = rooms.rooms.get(self.code)
        if event["origin"] == broadcast.PROCESS and room is not None:
            snapshot = room.snapshot
        else:
            snapshot = await database_sync_to_async(rooms.fresh_seats)(self.code)
        await self.send_snapshot(snapshot)

    async def send_latest(self):
        """The table as the database has it now (on connect, and after a stale move)."""
        await self.send_snapshot(await database_sync_to_async(rooms.latest)(self.code))

    async def send_snapshot(self, snapshot):
        if snapshot is self.sent or (self.sent is not None and snapshot.version < self.sent.version):
            return
        self.sent = snapshot
        with translation.override(self.language):
            text = self.render(snapshot)
        await self.send(text_data=text)

    async def send_error(self, error):
        with translation.override(self.language):
            text = message(error.code, error.reason)
        payload = {"type": "error", "code": error.code, "message": text}
        if error.reason:
            payload["reason"] = error.reason
        await self.send(text_data=json.dumps(payload))

    def query_language(self):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        language = (query.get("lang") or [""])[0]
        return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

    def query_value(self, key):
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return (query.get(key) or [""])[0]


class BrowserTableConsumer(TableConsumer):
    """The table page's socket: the seat comes from the cookie; states arrive as HTML."""

    # The version this socket last showed, and when (a move must not act on it sooner).
    shown_version, shown_at = None, 0.0

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
        shown, self.sent = self.sent, None
        await self.send_snapshot(shown or await database_sync_to_async(rooms.latest)(self.code))

    async def on_move(self, frame):
        """A person's control acts only on a state they have had on screen for a moment:
        a double tap must not play the move that appeared under the finger (a bot's
        socket, the API's, is not held back)."""
        if frame.get("version") == self.shown_version and time.monotonic() - self.shown_at < settings.GAMES_MIN_SEEN_SECONDS:
            raise GameError("too_soon")
        await super().on_move(frame)

    def render(self, snapshot):
        if snapshot.version != self.shown_version:
            # The socket's first state is the one the page already showed: not new to the player.
            first = self.shown_version is None
            self.shown_version, self.shown_at = snapshot.version, 0.0 if first else time.monotonic()
        html = table_render.render_live(snapshot.state_for(self.seat), self.sort, self.order)
        return json.dumps({"type": "state", "version": snapshot.version, "html": html})


class ApiTableConsumer(TableConsumer):
    """The programs' socket: the seat comes from `Authorization: Bearer`; states are JSON."""

    def seat_token(self):
        return token_from_headers(self.scope.get("headers", []))

    def render(self, snapshot):
        return snapshot.json_for(self.seat)


def chat_event(code, seat, text):
    line = services.say(code, seat, text)
    return broadcast.chat(code, line, rooms.rooms.room(code).seats[seat].name)


def expected_version(frame):
    version = frame.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise GameError("malformed")
    return version
