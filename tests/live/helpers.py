"""Shared helpers for the live-play tests: sockets through the real ASGI stack, a simple
player that always picks a reasonable legal move, and waiting for a given version."""

from datetime import timedelta

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.engine import Move
from games.models import Move as LoggedMove, Table

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from hollywood_site.asgi import application

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")  # a browser's socket names the host it was opened on
TIMEOUT = 5


async def api_socket(code, token=None):
    secret = [(b"authorization", f"Bearer {token}".encode())] if token else []
    return await connected(f"/ws/api/tables/{code}/", [ORIGIN, HOST, *secret])


async def browser_socket(code, token=None, lang="en", sort="melds", viewer=None):
    """A table page's socket; with `viewer`, the browser's viewer cookie (table.js sets it)."""
    cookies = [f"seat_{code}={token}"] * bool(token) + [f"viewer={viewer}"] * bool(viewer)
    headers = [(b"cookie", "; ".join(cookies).encode())] if cookies else []
    return await connected(f"/ws/tables/{code}/?lang={lang}&sort={sort}", [ORIGIN, HOST, *headers])


async def connected(path, headers):
    socket = WebsocketCommunicator(application, path, headers=headers)
    accepted, _ = await socket.connect(timeout=TIMEOUT)
    assert accepted
    return socket


async def receive(socket, timeout=TIMEOUT):
    return await socket.receive_json_from(timeout=timeout)


async def state_where(socket, condition, timeout=TIMEOUT):
    """Read frames until a state meets the condition (presence updates come and go), each
    within `timeout` seconds."""
    while True:
        frame = await receive(socket, timeout)
        assert frame["type"] != "error", frame
        if frame["type"] == "state" and condition(frame):
            return frame


async def state_at(socket, version):
    return await state_where(socket, lambda state: state["version"] >= version)


async def both_press(sockets, states, kind):
    """Seat 0 presses (both see it ready, the game's version unchanged), then seat 1 (the
    change comes: a new version)."""
    version = states[0]["version"]
    await sockets[0].send_json_to({"type": kind, "version": version})
    for socket in sockets:
        await state_where(socket, lambda state: state["players"][0]["ready"] and state["version"] == version)
    await sockets[1].send_json_to({"type": kind, "version": version})
    return [await state_at(socket, version + 1) for socket in sockets]


async def error_frame(socket):
    while True:
        frame = await receive(socket)
        if frame["type"] == "error":
            return frame


def choose_move(state):
    """Knock whenever allowed (least deadwood first), else draw, else the discard
    that leaves the least deadwood."""
    legal = state["legal_moves"]
    if state["knocks"]:
        return state["knocks"][0]["move"]
    for move in ("pass", "stock", "pile"):
        if move in legal:
            return move
    discards = [Move.from_text(move) for move in legal if Move.from_text(move).verb == "discard"]
    return min(discards, key=lambda move: state["discard_deadwood"][str(move.card)]).text()


@database_sync_to_async
def open_seated_table(scoring="hollywood", target=100, seed="fixed", **options):
    """A table with Ana in seat 0 and Ben in seat 1; returns (code, [token0, token1])."""
    ana = open_table("Ana", scoring=scoring, target=target, deal_seed=seed, **options)
    ben = send_now(ana.table.code, Sit("Ben")).answer
    return ana.table.code, [ana.token, ben.token]


def state_of(code, seat):
    """What `seat` (None: a spectator) sees of table `code` as the database has it now."""
    return live_tables.owner(code).refresh().state_for(seat)


async def seated_sockets(scoring="hollywood", **options):
    code, tokens = await open_seated_table(scoring, **options)
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in sockets]
    return code, tokens, sockets, states


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def play(sockets, states, move=None):
    """The seat to move plays (its choice, or `move`); returns both seats' next states."""
    mover = states[0]["to_move"]
    version = states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": move or choose_move(states[mover]), "version": version})
    return [await state_at(socket, version + 1) for socket in sockets]


async def next_hand(sockets, states):
    return await both_press(sockets, states, "next_hand")


async def close(*sockets):
    for socket in sockets:
        await socket.disconnect()


@database_sync_to_async
def table_row(code):
    return Table.objects.get(code=code)


@database_sync_to_async
def move_count(code):
    return LoggedMove.objects.filter(table__code=code).count()


def loaded(code):
    """(table, seats, match) of the table's owner in this process."""
    owner = live_tables.owner(code)
    return owner.table, owner.seats, owner.match


def seated_table():
    """A table with Ana and Ben seated, in a thread that may use the database: (table, seats, match)."""
    table, *_ = open_table("Ana", deal_seed="services")
    send_now(table.code, Sit("Ben"))
    return loaded(table.code)


def time_runs_out(code):
    """The table's stored deadline moved into the past, and the owner built again from the
    database (as after a restart): nothing of its clock is in any process's memory."""
    Table.objects.filter(code=code).update(clock_deadline=timezone.now() - timedelta(seconds=1))
    live_tables.clear()
