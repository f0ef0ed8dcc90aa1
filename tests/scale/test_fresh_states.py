"""Through a fault, every seat is shown the table as the database has it: two server processes
with every table's seats split between them, Redis killed and started again mid-play, a seat's
socket dropped while its opponent plays, a process killed with -9 and started again.

Run in the PostgreSQL configuration of `dev.py test` (marker "scaleout").
"""

import asyncio
import json
import urllib.error

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.models import Table
from tests import processes
from tests.live.helpers import choose_move
from tests.scale.test_processes import ANSWER, Player, database_url, open_table, post

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

TABLES = 6
MOVES_AGAIN = 5  # seconds within which every table must move again after a fault


class SplitCluster:
    """A private Redis and two site processes; no proxy: each table's seat 0 is on the first
    process, its seat 1 on the second, so every move crosses the channel layer."""

    def __init__(self):
        self.redis = processes.PrivateRedis()
        self.env = processes.site_env(database_url(), self.redis.url, GAMES_WS_RATE_PER_SECOND="1000",
                                      DJANGO_RATE_LIMITS="open_table=1000/m,join=1000/m,connect=1000/m")
        self.sites = [processes.uvicorn(self.env) for _ in range(2)]

    def kill_redis(self):
        self.redis.process.kill()  # SIGKILL: no goodbye to its clients
        self.redis.process.wait(timeout=10)

    def start_redis(self):
        self.redis = processes.PrivateRedis(self.redis.port)

    def restart_site(self, index):
        self.sites[index] = processes.uvicorn(self.env, port=self.sites[index].port)

    def stop(self):
        for part in (*self.sites, self.redis):
            part.stop()


@pytest.fixture
def cluster():
    running = SplitCluster()
    yield running
    running.stop()


def database_version(code):
    try:
        return Table.objects.get(code=code).version
    finally:
        connection.close()  # this thread's connection would keep the test database from being dropped


def refused_join(port, code):
    """A third visitor asks for a seat on this process: refused, but the process's copy of the
    table is read afresh (as a page opening reads it), with no socket told by the read."""
    try:
        post(port, f"/api/tables/{code}/join", {"name": "Cy"})
    except urllib.error.HTTPError as refused:
        assert refused.code == 409
    else:
        raise AssertionError("a third seat was given")


async def split_tables(cluster):
    tables = []
    for _ in range(TABLES):
        code, tokens = open_table(cluster.sites[0].port)
        players = [Player(code, token, site.port) for token, site in zip(tokens, cluster.sites)]
        for player in players:
            await player.connect()
        tables.append(players)
    return tables


async def move(players, timeout=ANSWER):
    """The seat to move plays once; both seats see the move within `timeout` seconds."""
    state = players[0].state
    mover, version = players[state["to_move"]], state["version"]
    await mover.socket.send(json.dumps({"type": "move", "move": choose_move(mover.state), "version": version}))
    await asyncio.wait_for(asyncio.gather(*(player.state_where(lambda s: s["version"] > version)
                                             for player in players)), timeout)


async def both_shown_the_database(players, timeout):
    version = await database_sync_to_async(database_version)(players[0].code)
    await asyncio.wait_for(asyncio.gather(*(player.state_where(lambda s: s["version"] >= version)
                                             for player in players if player.state["version"] < version)), timeout)


async def close_all(tables):
    for players in tables:
        for player in players:
            await player.close()


async def test_every_table_moves_again_within_five_seconds_after_redis_is_killed_and_restarted(cluster):
    tables = await split_tables(cluster)
    for players in tables:
        await move(players)
    cluster.kill_redis()
    for players in tables:  # the mover's process shows it; the other process cannot hear of it
        mover = players[players[0].state["to_move"]]
        await mover.socket.send(json.dumps({"type": "move", "move": choose_move(mover.state),
                                            "version": mover.state["version"]}))
        await mover.state_where(lambda s, v=mover.state["version"]: s["version"] > v)
        for site in cluster.sites:  # visitors read the table afresh on both processes
            await asyncio.to_thread(refused_join, site.port, players[0].code)
    cluster.start_redis()
    for players in tables:
        await both_shown_the_database(players, MOVES_AGAIN)
        await move(players, MOVES_AGAIN)
    await close_all(tables)


async def test_a_seat_reconnecting_while_its_opponent_plays_is_first_shown_the_databases_version(cluster):
    tables = await split_tables(cluster)
    for _ in range(2):
        for players in tables:
            waiting = players[1 - players[0].state["to_move"]]
            await waiting.close()
            mover = players[1 - players.index(waiting)]
            version = mover.state["version"]
            await mover.socket.send(json.dumps({"type": "move", "move": choose_move(mover.state), "version": version}))
            await mover.state_where(lambda s: s["version"] > version)
            first = await waiting.connect()
            assert first["version"] == await database_sync_to_async(database_version)(waiting.code)
    await close_all(tables)


async def test_after_a_process_is_killed_and_restarted_its_seats_are_first_shown_the_database_and_play_on(cluster):
    tables = await split_tables(cluster)
    for players in tables:
        await move(players)
    cluster.sites[1].kill()
    for players in tables:  # the seats on the first process play on where it is theirs to move
        if players[0].state["to_move"] == 0:
            version = players[0].state["version"]
            await players[0].socket.send(json.dumps({"type": "move", "move": choose_move(players[0].state),
                                                     "version": version}))
            await players[0].state_where(lambda s: s["version"] > version)
    cluster.restart_site(1)
    for players in tables:
        first = await players[1].reconnect()
        assert first["version"] == await database_sync_to_async(database_version)(players[1].code)
        await both_shown_the_database(players, MOVES_AGAIN)
        await move(players, MOVES_AGAIN)
    await close_all(tables)
