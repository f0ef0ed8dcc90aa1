"""Live play across real server processes: two uvicorn processes on one PostgreSQL and one
Redis, behind nginx with the table affinity of docs/nginx/. A process killed mid-hand and a
Redis restarted during play lose nothing: the players reconnect and the match goes on.

Run in the PostgreSQL configuration of `dev.py test` (marker "scaleout").
"""

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from games.live.owner import LiveTable
from games.models import Move

from tests import processes
from tests.live.helpers import choose_move

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ANSWER = 10  # seconds a state may take to arrive


def database_url():
    database = settings.DATABASES["default"]
    return (f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST'] or '127.0.0.1'}"
            f":{database['PORT'] or 5432}/{database['NAME']}")


class Cluster:
    """A private Redis, two site processes on the test's database, and nginx before them."""

    def __init__(self):
        self.redis = processes.PrivateRedis()
        self.env = processes.site_env(database_url(), self.redis.url, GAMES_WS_RATE_PER_SECOND="1000")
        self.sites = [processes.uvicorn(self.env) for _ in range(2)]
        self.proxy = processes.nginx([site.port for site in self.sites])

    def restart_redis(self):
        port = self.redis.port
        self.redis.stop()
        self.redis = processes.PrivateRedis(port)

    def stop(self):
        for part in (self.proxy, *self.sites, self.redis):
            part.stop()


@pytest.fixture
def cluster():
    running = Cluster()
    yield running
    running.stop()


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=ANSWER))


def open_table(port, scoring="game"):
    opened = post(port, "/api/tables", {"name": "Ana", "scoring": scoring})
    joined = post(port, f"/api/tables/{opened['code']}/join", {"name": "Ben"})
    return opened["code"], [opened["token"], joined["token"]]


class Player:
    """One seat over the JSON protocol, on the port it is told; it reconnects when told to."""

    def __init__(self, code, token, port):
        self.code, self.token, self.port, self.socket, self.state = code, token, port, None, None

    async def connect(self, port=None):
        self.port = port or self.port
        self.socket = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/ws/api/tables/{self.code}/", origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Authorization": f"Bearer {self.token}"}, open_timeout=ANSWER,
        )
        return await self.state_where(lambda state: True)

    async def reconnect(self, port=None, attempts=50):
        """Connect again until a server answers (bounded: a restarting Redis or process)."""
        for _ in range(attempts):
            try:
                return await self.connect(port)
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                await asyncio.sleep(0.2)  # a retry's back-off, not a synchronisation
        raise AssertionError(f"no server took the socket of table {self.code} back")

    async def state_where(self, condition):
        while True:
            frame = json.loads(await asyncio.wait_for(self.socket.recv(), ANSWER))
            assert frame["type"] != "error", frame
            if frame["type"] != "state":  # a chat line or the database's status: not a table state
                continue
            self.state = frame
            if condition(frame):
                return frame

    async def close(self):
        await self.socket.close()


async def play_until(players, done):
    """The seat to move plays until `done(state)`; returns how many moves were made. A player
    whose socket the server closed reconnects, as the table's page does, and play goes on
    from the state it is sent then."""
    moves = 0
    while not done(players[0].state):
        try:
            moves += await play_one(players)
        except websockets.ConnectionClosed:
            for player in players:
                await player.close()
                await player.reconnect()
    return moves


async def play_one(players):
    state = players[0].state
    if state["hand_result"] is not None:
        for player in players:
            await player.socket.send(json.dumps({"type": "next_hand"}))
        await asyncio.gather(*(player.state_where(lambda s: s["hand_result"] is None) for player in players))
        return 0
    mover, version = players[state["to_move"]], state["version"]
    await mover.socket.send(json.dumps({"type": "move", "move": choose_move(mover.state), "version": version}))
    await asyncio.gather(*(player.state_where(lambda s, v=version: s["version"] > v) for player in players))
    return 1


def hand_from_the_log(code, seat):
    try:
        return LiveTable(code).match.hand.view(seat)["hand"]
    finally:
        connection.close()


def moves_logged(code):
    try:
        return Move.objects.filter(table__code=code).count()
    finally:
        connection.close()  # this thread's connection would keep the test database from being dropped


def sockets_open_on(port):
    """Connections established to `port` on this machine (IPv4, /proc/net/tcp): a site's
    sockets from nginx, the short requests' long closed."""
    rows = [row.split() for row in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for row in rows if row[1].endswith(f":{port:04X}") and row[3] == "01")


async def seated(cluster, ports):
    code, tokens = open_table(cluster.proxy.port)
    players = [Player(code, token, port) for token, port in zip(tokens, ports)]
    for player in players:
        await player.connect()
    return code, players


async def test_it_plays_a_whole_match_with_one_player_on_each_process(cluster):
    code, players = await seated(cluster, [site.port for site in cluster.sites])
    moves = await play_until(players, lambda state: state["match_over"])
    assert players[0].state["sheet"] == players[1].state["sheet"] and players[0].state["sheet"]["is_over"]
    assert await database_sync_to_async(moves_logged)(code) == moves
    for player in players:
        await player.close()


async def test_it_keeps_both_players_of_a_table_on_one_process_behind_nginx(cluster):
    code, players = await seated(cluster, [cluster.proxy.port] * 2)
    await play_until(players, lambda state: state["hand_result"] is not None)
    assert players[0].state["hand_result"] == players[1].state["hand_result"]
    for player in players:
        await player.close()


async def test_it_goes_on_at_the_same_card_after_a_process_is_killed_mid_hand(cluster):
    code, players = await seated(cluster, [site.port for site in cluster.sites])
    before = await play_until(players, lambda state: state["version"] >= 8)
    held = players[0].state["hand"]
    cluster.sites[0].kill()
    # Its player comes back on the other process and finds the table at the same card.
    resumed = await players[0].reconnect(cluster.sites[1].port)
    assert resumed["hand"] == held and resumed["version"] == players[1].state["version"]
    after = await play_until(players, lambda state: state["hand_result"] is not None or state["version"] >= 20)
    assert await database_sync_to_async(moves_logged)(code) == before + after
    for player in players:
        await player.close()


async def test_it_goes_on_after_redis_restarts_during_play(cluster):
    code, players = await seated(cluster, [site.port for site in cluster.sites])
    before = await play_until(players, lambda state: state["version"] >= 6)
    cluster.restart_redis()
    after = await play_until(players, lambda state: state["hand_result"] is not None or state["version"] >= 16)
    # A move may have been applied while its socket went down: it is logged even so, and the
    # log replays to the very card both players see.
    assert after > 0 and await database_sync_to_async(moves_logged)(code) >= before + after
    assert await database_sync_to_async(hand_from_the_log)(code, 0) == players[0].state["hand"]
    for player in players:
        await player.close()


async def test_it_carries_a_killed_processs_tables_on_in_the_other_behind_nginx_at_the_same_card(cluster):
    code, players = await seated(cluster, [cluster.proxy.port] * 2)
    holding, other = sorted(cluster.sites, key=lambda site: -sockets_open_on(site.port))
    assert sockets_open_on(holding.port) == 2 and sockets_open_on(other.port) == 0  # nginx: one process a table
    before = await play_until(players, lambda state: state["version"] >= 8)
    held = [player.state for player in players]
    holding.kill()
    # Both pages find their socket closed and open it again through nginx, as table.js does.
    resumed = [await player.reconnect() for player in players]
    assert [state["hand"] for state in resumed] == [state["hand"] for state in held]
    assert [state["version"] for state in resumed] == [held[0]["version"]] * 2
    assert sockets_open_on(other.port) == 2
    after = await play_until(players, lambda state: state["hand_result"] is not None or state["version"] >= 20)
    assert after > 0 and await database_sync_to_async(moves_logged)(code) == before + after
    for player in players:
        await player.close()
