"""Real outages under live play: a private PostgreSQL stopped and started again under a running
server, and one of two server processes killed while its player is connected.

Run in the PostgreSQL configuration of `dev.py test` (marker "scaleout").
"""

import asyncio
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
import websockets

from tests import processes
from tests.scale.test_processes import ANSWER, Player, database_url, open_table, post
from tests.live.helpers import choose_move

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


@pytest.fixture
def site_on_a_private_database():
    """One uvicorn process on a PostgreSQL cluster of its own, which the test may stop."""
    with processes.PrivatePostgres() as postgres:
        env = processes.site_env(postgres.url, GAMES_WS_RATE_PER_SECOND="1000")
        subprocess.run([postgres.bin / "createdb", "-h", processes.HOST, "-p", str(postgres.port), "-U", "postgres",
                        "hollywood"], check=True)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input"], cwd=processes.ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        site = processes.uvicorn(env)
        try:
            yield postgres, site
        finally:
            site.stop()


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def when(player, condition):
    """The player's state once it meets `condition`: the one it has, or the next that does."""
    return player.state if condition(player.state) else await player.state_where(condition)


async def next_frame(player, kinds):
    while True:
        frame = json.loads(await asyncio.wait_for(player.socket.recv(), ANSWER))
        if frame["type"] in kinds:
            return frame


async def test_it_keeps_the_players_sockets_through_a_database_outage_and_plays_on(site_on_a_private_database):
    postgres, site = site_on_a_private_database
    code, tokens = open_table(site.port)
    players = [Player(code, token, site.port) for token in tokens]
    for player in players:
        await player.connect()
    state = await when(players[0], both_connected)
    mover = players[state["to_move"]]
    await when(mover, both_connected)
    move = {"type": "move", "move": choose_move(mover.state), "version": state["version"]}

    postgres.stop()
    await mover.socket.send(json.dumps(move))
    refused = await next_frame(mover, ("error",))
    assert refused["code"] == "database_unavailable" and "trouble" in refused["message"]
    told = await next_frame(players[0], ("status",))  # the page is told the database is away
    assert told["database"] is False
    with pytest.raises(urllib.error.HTTPError) as answer:
        post(site.port, "/api/tables", {"name": "Cyd"})
    assert answer.value.code == 503 and json.load(answer.value)["error"]["code"] == "database_unavailable"

    postgres.start()
    back = await next_frame(players[0], ("status",))
    assert back["database"] is True
    await mover.socket.send(json.dumps(move))  # the same move, tried again: it was never played
    played = await mover.state_where(lambda s: s["version"] == state["version"] + 1)
    assert played["history"][-1][1] == move["move"]
    for player in players:
        await player.close()


# The default settings' promise (docs/protocol.md): a killed process's seats show away within
# 10 s; the slack is the machine's, busy with the suite.
AWAY_WITHIN_SECONDS = 10 + 3


async def test_it_counts_a_killed_servers_player_away_within_ten_seconds_and_no_other():
    redis = processes.PrivateRedis()
    env = processes.site_env(database_url(), redis.url, GAMES_WS_RATE_PER_SECOND="1000")
    sites = [processes.uvicorn(env) for _ in range(2)]
    try:
        code, tokens = open_table(sites[0].port)
        ana, ben = Player(code, tokens[0], sites[0].port), Player(code, tokens[1], sites[1].port)
        await ana.connect()
        await ben.connect()
        await when(ben, both_connected)
        sites[0].kill()  # SIGKILL: Ana's socket never says goodbye
        gone = await asyncio.wait_for(ben.state_where(lambda s: not s["players"][0]["connected"]), AWAY_WITHIN_SECONDS)
        assert gone["players"][1]["connected"]  # Ben's own socket, on the living server, still counts
        await ben.close()
    finally:
        for part in (*sites, redis):
            part.stop()


async def closed_with(port, code, token=None):
    """The close code of a socket opened on table `code` (as seat `token`, else a spectator)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with websockets.connect(f"ws://{processes.HOST}:{port}/ws/api/tables/{code}/",
                                  origin=f"http://{processes.HOST}:{port}", additional_headers=headers,
                                  open_timeout=ANSWER) as socket:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(socket.recv(), ANSWER)
    return closed.value.rcvd.code if closed.value.rcvd else 1006


async def test_it_closes_every_socket_opened_during_a_database_outage_with_4503_and_no_traceback(
        site_on_a_private_database):
    postgres, site = site_on_a_private_database
    held, tokens = open_table(site.port)  # this process holds it: a seat is found in memory
    player = Player(held, tokens[0], site.port)
    await player.connect()
    other, other_tokens = open_table(site.port)
    postgres.stop()
    codes = [await closed_with(site.port, held, tokens[1]), await closed_with(site.port, held),
             await closed_with(site.port, other, other_tokens[0])]
    await player.close()
    postgres.start()
    assert codes == [4503, 4503, 4503]
    log = os.pread(site.log.fileno(), os.fstat(site.log.fileno()).st_size, 0)  # the server's offset untouched
    assert b"Traceback" not in log, log.decode(errors="replace")
