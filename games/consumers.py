"""Thin WebSocket consumers: parse a frame, call one service, broadcast the version.

The group hears only `{"type": "table.changed", "version": N}`; every socket then loads
the table and renders its own seat's view, in its own page language. No card crosses
the channel layer. Refusals are answered with an error frame and never close the socket.
"""

import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import broadcast, services, state
from games import render as table_render
from games.errors import GameError
from games.messages import message
from games.seats import token_from_cookies, token_from_headers
from games.state import PRESENCE_HEARTBEAT

logger = logging.getLogger(__name__)

MAX_FRAME_CHARACTERS = 2048
# A token bucket per connection: bursts of 60, then 30 frames a second. Far above any
# human, enough for a bot; a flood gets error frames instead of database work.
# Settings GAMES_WS_RATE_BURST / GAMES_WS_RATE_PER_SECOND override it (load tests).
RATE_BURST = 60
RATE_PER_SECOND = 30


class RateLimit:
    def __init__(self, burst, per_second):
        self.burst, self.per_second = burst, per_second
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TableConsumer(AsyncWebsocketConsumer):
    """What both sockets share; subclasses say how a seat is found and a state is sent."""

    seat = None
    joined = False
    heartbeat = None

    async def connect(self):
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.group = broadcast.group_name(self.code)
        self.language = self.query_language()
        self.limit = RateLimit(
            getattr(settings, "GAMES_WS_RATE_BURST", RATE_BURST),
            getattr(settings, "GAMES_WS_RATE_PER_SECOND", RATE_PER_SECOND),
        )
        self.last_version = -1
        try:
            self.seat = await database_sync_to_async(state.find_seat)(self.code, self.seat_token())
        except GameError:
            # Accept first: a close before accept() is an HTTP 403 handshake refusal,
            # which a browser sees as 1006, so table.js could not tell it from an outage.
            await self.accept()
            await self.close(code=4404)
            return
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        if self.seat is None:
            await self.send_state()
            return
        await database_sync_to_async(services.set_presence)(self.code, self.seat, True)
        self.heartbeat = asyncio.create_task(self.beat())
        # Everyone re-renders the opponent's presence; this socket gets its full state,
        # from the group or, if the channel layer failed, directly.
        if not await self.announce(None):
            await self.send_state()

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
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if not self.joined:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(services.set_presence)(self.code, self.seat, False)
            await self.announce(None)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            frame = self.parse(text_data, bytes_data)
            await self.handler_for(frame)(frame)
        except GameError as error:
            await self.send_error(error)
            if error.code == "stale":
                await self.send_state()
        except Exception:
            # A bug must not close the table for this player: the transaction rolled
            # back, so say so and carry on with the current state.
            logger.exception("frame failed at table %s", self.code)
            await self.send_error(GameError("server_error"))
            await self.send_state()

    def parse(self, text_data, bytes_data):
        if text_data is None:
            raise GameError("malformed")
        if len(text_data) > MAX_FRAME_CHARACTERS:
            raise GameError("too_large")
        if not self.limit.allow():
            raise GameError("rate_limited")
        try:
            frame = json.loads(text_data)
        except ValueError:
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
        if not await broadcast.tell_chat(self.channel_layer, self.code, event):
            await self.table_chat(event)

    async def table_chat(self, event):
        await self.send(text_data=json.dumps({key: event[key] for key in ("id", "seat", "name", "text")} | {"type": "chat"}))

    async def on_move(self, frame):
        move = frame.get("move")
        if not isinstance(move, str):
            raise GameError("malformed")
        await self.change(services.play_move, move, expected_version(frame))

    # "next_hand" and "rematch" ignore any version: readiness is idempotent.
    async def on_next_hand(self, frame):
        await self.change(services.ready_for_next_hand)

    async def on_rematch(self, frame):
        await self.change(services.rematch)

    async def change(self, operation, *args):
        version = await database_sync_to_async(operation)(self.code, self.seat, *args)
        # The change has committed: a failed announcement is no refusal. This socket
        # shows its own change at once; the others catch up at the next announcement.
        if not await self.announce(version):
            await self.send_state()

    async def announce(self, version):
        """Tell the group the table changed (presence changes keep the version); False if
        the channel layer failed, which broadcast.tell has logged."""
        if version is None:
            version = await database_sync_to_async(state.current_version)(self.code)
        return await broadcast.tell(self.channel_layer, self.code, version)

    async def table_changed(self, event):
        # An older announcement arriving late has nothing new to show.
        if event["version"] >= self.last_version:
            await self.send_state()

    async def send_state(self):
        seat_state = await database_sync_to_async(state.load_state)(self.code, self.seat)
        self.last_version = seat_state["version"]
        with translation.override(self.language):
            payload = self.render(seat_state)
        await self.send(text_data=json.dumps(payload))

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
        await self.send_state()

    async def on_move(self, frame):
        """A person's control acts only on a state they have had on screen for a moment:
        a double tap must not play the move that appeared under the finger (a bot's
        socket, the API's, is not held back)."""
        if frame.get("version") == self.shown_version and time.monotonic() - self.shown_at < settings.GAMES_MIN_SEEN_SECONDS:
            raise GameError("too_soon")
        await super().on_move(frame)

    def render(self, state):
        if state["version"] != self.shown_version:
            # The socket's first state is the one the page already showed: not new to the player.
            first = self.shown_version is None
            self.shown_version, self.shown_at = state["version"], 0.0 if first else time.monotonic()
        html = table_render.render_live(state, self.sort, self.order)
        return {"type": "state", "version": state["version"], "html": html}


class ApiTableConsumer(TableConsumer):
    """The programs' socket: the seat comes from `Authorization: Bearer`; states are JSON."""

    def seat_token(self):
        return token_from_headers(self.scope.get("headers", []))

    def render(self, state):
        return state


def chat_event(code, seat, text):
    line = services.say(code, seat, text)
    return broadcast.chat(line, state.seat_name(code, seat))


def expected_version(frame):
    version = frame.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise GameError("malformed")
    return version
