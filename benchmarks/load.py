"""Live play under load: N tables played over the JSON protocol, beside a bare WebSocket echo.

    .venv/bin/python benchmarks/load.py                       # both configurations, N=10 and 200
    .venv/bin/python benchmarks/load.py --config one --tables 10 50 --seconds 20
    .venv/bin/python benchmarks/load.py --pace 2 --tables 1000  # human pace: a move every 2 s a table
    .venv/bin/python benchmarks/load.py --config one --tables 10 --path json browser --seconds 20
    .venv/bin/python benchmarks/load.py --config two --affinity off --tables 10  # any socket, any process
    .venv/bin/python benchmarks/load.py --config one one-pg two --tables 10  # what PostgreSQL, what a 2nd process costs
    .venv/bin/python benchmarks/load.py --config both --tables 10 --layer direct pubsub core  # Redis layers
    .venv/bin/python benchmarks/load.py --config one --tables 10 --computer-tables 0 100 --pace 2
    .venv/bin/python benchmarks/load.py --config one --tables 10 --seconds 20 --profile /tmp/load  # py-spy
    git worktree add /tmp/before 8f7ee88 && ln -s $PWD/.venv /tmp/before/.venv  # an earlier commit ...
    .venv/bin/python benchmarks/load.py --site /tmp/before . --rounds 2 --path browser  # ... beside this one

Paths: "json" drives each seat over the JSON protocol (/ws/api/tables/<code>/) alone; "browser"
does the same with both players' pages' own sockets open beside it (/ws/tables/<code>/ with
the seat cookie), listening as a page does: every HTML frame a browser would receive, whose
size is printed plain and deflate-compressed (per socket, with context takeover, as
permessage-deflate sends it), and whose delay from the move sent is the "page" latency.
`--computer-tables M` adds M tables against the computer (`--level`), their human seat
played like the others: the human tables' figures are printed apart from theirs. With
`--config two --affinity off` each seat's sockets go straight to a different process than
its opponent's (the worst case of no affinity at all); a `stale` or `not_your_turn` refusal is
then one the player did not cause (the players here only move on a state that offers it) and
is counted as "server-caused refusals". Nothing is counted during the first 3 s (`--warm-up`:
the sockets connecting, the templates' first renders; hundreds of tables take longer to arrive,
and their arrivals counted would be the run's tail). The computer thinks in worker processes
of the site's: their CPU is printed apart ("computer"), not as the site's.

Configurations: "one" is one uvicorn process on a fresh SQLite file with the in-memory channel
layer (the embedded defaults); "two" is two uvicorn processes behind nginx with table affinity
(docs/nginx/), on PostgreSQL (a private server of the run's own, durable as PostgreSQL's defaults
are, whose processes alone are counted; or the server DATABASE_URL / --database-url names; a fresh
database) and a private redis-server; "one-pg" is one such process alone on the same PostgreSQL and Redis, no
nginx: two's CPU a move against one-pg's is what the second process and the proxy cost, and
one-pg's against one's what PostgreSQL and Redis cost instead of SQLite and memory. Each table has two programs, one
per seat, each sending its move the moment its state arrives (or, with --pace, once the table's
last move is that many seconds old). The floor is a bare WebSocket echo server driven the same
way in the same run: one message out, wait for its answer.

The frames floor (one process, full speed): after the site's run, a bare ASGI app under the
same uvicorn command answers each move with the frames this run's site sent (each socket its
own seat's, in order: the JSON states, and the pages' HTML, deflated as uvicorn deflates it),
to the same number of tables with the same sockets open; no game, no database, no template.
Its CPU a move is what the sockets alone cost, so the site's CPU above it is our own code's.

Printed per run: moves/s; latency p50/p95/p99/max (a move sent to its new state received);
errors and lost moves (moves answered with a new state that the database's move log lacks);
the servers' memory (RSS before and after) and CPU milliseconds per move (server processes,
plus Redis and PostgreSQL for "two" and "one-pg"); and the ratios to the floor. Load only goes to 127.0.0.1,
every loop is bounded in time, and every process started is stopped.
"""

import argparse
import asyncio
import collections
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import processes  # noqa: E402
PYTHON = sys.executable
HOST = "127.0.0.1"
ANSWER_TIMEOUT = 10  # a move unanswered this long counts as an error
# Every player, page and spectator here comes from 127.0.0.1: the caps and budget of one
# client address (games.live.limits) are for visitors, each from an address of their own.
ONE_ADDRESS_FOR_ALL = {"GAMES_WS_MAX_SOCKETS_PER_ADDRESS": "1000000", "GAMES_WS_ADDRESS_RATE_BURST": "1000000",
                       "GAMES_WS_ADDRESS_RATE_PER_SECOND": "1000000"}
SAMPLED_FRAMES = 400  # frames of each socket kept for the frames floor
TICKS = os.sysconf("SC_CLK_TCK")
# How uvicorn deflates a socket's frames (its websockets-sansio protocol): a frame's size on the
# wire is measured with the same window, so that repeats of frames older than 4 KB count as bytes.
UVICORN_WINDOW_BITS, UVICORN_MEM_LEVEL = 12, 5


# Processes and their cost ------------------------------------------------------------------

def descendants(pid):
    """The process and all its children, from /proc."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            children = (task / "children").read_text().split() if (task / "children").exists() else []
            queue.extend(int(child) for child in children)
    return found


def cpu_by_pid(pids):
    """{pid: CPU seconds} used by each of these processes and by its children that have ended."""
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        used[pid] = sum(int(field) for field in fields[11:15]) / TICKS  # utime, stime, cutime, cstime
    return used


def cpu_seconds(pids):
    return sum(cpu_by_pid(pids).values())


def cpu_since(before, pids):
    """CPU used since `before` (cpu_by_pid's) by these processes, counted process by process,
    for processes that are not a whole tree (a shared server's backends of this run): one
    started since counts whole, one ended since counts nothing, where a difference of two
    totals would subtract all it had used."""
    return sum(used - before.get(pid, 0) for pid, used in cpu_by_pid(pids).items())


def cpu_used(before, now):
    """CPU seconds between two readings of a part: totals (a whole tree of processes, whose
    ended children's time its parents' cutime holds) or {pid: seconds} (cpu_since)."""
    return cpu_since(before, now) if isinstance(before, dict) else cpu_seconds(now) - before


def rss_mb(pids):
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")), 0)
    return total / 1024


def wait_for_http(url, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except urllib.error.HTTPError:
            return  # an answer, if not a page: the server is up
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {seconds} s")


class Server:
    """One configuration of the site, started on free ports and stopped at the end: "one" is
    a single uvicorn process on SQLite; "two" is two uvicorn processes behind nginx with the table
    affinity of docs/nginx/, on PostgreSQL and a private redis-server; "one-pg" is one of those
    processes alone on the same PostgreSQL and Redis."""

    def __init__(self, config, database_url, extra_env=None, checkout=ROOT):
        self.config, self.parts, self.admin, self.checkout = config, [], None, checkout
        self.postgres = None  # the run's own PostgreSQL server, unless --database-url names one
        self.extra_env = extra_env or {}
        self.directory = tempfile.TemporaryDirectory(prefix="hollywood-load-")
        try:
            self.start(database_url)
        except BaseException:
            self.stop()
            raise

    def start(self, database_url):
        # One address plays every table at full speed: far past what limits a person.
        knobs = {"GAMES_WS_RATE_PER_SECOND": "100000", "GAMES_WS_RATE_BURST": "100000", **ONE_ADDRESS_FOR_ALL,
                 "DJANGO_RATE_LIMITS": "open_table=100000/m,join=100000/m,connect=100000/m", **self.extra_env}
        if self.config == "one":
            self.env = processes.site_env(f"sqlite:///{self.directory.name}/load.sqlite3", **knobs)
        else:
            redis = processes.PrivateRedis()
            self.parts.append(redis)
            if database_url is None:
                self.postgres = processes.PrivatePostgres(durable=True)
                database_url = self.postgres.url
            self.env = processes.site_env(self.fresh_postgres(database_url), redis.url, **knobs)
        subprocess.run([PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=self.checkout, env=self.env, check=True)
        self.sites = [processes.uvicorn(self.env, root=self.checkout) for _ in range(2 if self.config == "two" else 1)]
        self.parts += self.sites
        if self.config != "two":
            self.port = self.sites[0].port
        else:
            proxy = processes.nginx([site.port for site in self.sites])
            self.parts.append(proxy)
            self.port = proxy.port
        wait_for_http(f"http://{HOST}:{self.port}/sitemap.xml")

    def socket_ports(self, affinity):
        """Where seat 0's and seat 1's sockets go: through the proxy (affinity), or straight to
        two different processes (no affinity: the worst case)."""
        if affinity or len(self.sites) == 1:
            return self.port, self.port
        return self.sites[0].port, self.sites[1].port

    def fresh_postgres(self, url):
        base, _, _name = url.rpartition("/")
        fresh = f"load_{os.getpid()}"
        self.admin = (base + "/postgres", fresh)
        self.psql(f"DROP DATABASE IF EXISTS {fresh}")
        self.psql(f"CREATE DATABASE {fresh}")
        return f"{base}/{fresh}"

    def psql(self, sql):
        return subprocess.run(["psql", self.admin[0], "-q", "-A", "-t", "-c", sql], check=True, capture_output=True,
                              text=True).stdout

    def postgres_pids(self):
        """The run's own server's processes, the postmaster first (whose cutime holds its ended
        backends' time); on a server named by --database-url, the backends of the run's fresh
        database and the server's own (checkpointer, WAL writer...), not the others' backends
        (another session's tests or benchmarks) nor its postmaster, whose cutime holds theirs."""
        if self.postgres is not None:
            return descendants(self.postgres.pid)
        listed = self.psql(f"SELECT pid FROM pg_stat_activity WHERE datname = '{self.admin[1]}' OR datname IS NULL")
        return [int(pid) for pid in listed.split()]

    def cpu_reading(self):
        """{part: what cpu_used compares}: totals, but per process for a shared server's backends."""
        by_pid = {"postgres"} if self.postgres is None else set()
        return {part: cpu_by_pid(pids) if part in by_pid else cpu_seconds(pids)
                for part, pids in self.cost_pids().items()}

    def server_pids(self):
        return [pid for site in self.sites for pid in descendants(site.pid)]

    def cost_pids(self):
        """Whose CPU a move costs, by part: the site's processes, the computer's (the site's
        worker processes), and nginx, Redis and PostgreSQL (the run's own processes of it)."""
        parts = {"site": [site.pid for site in self.sites],
                 "computer": [pid for site in self.sites for pid in descendants(site.pid) if pid != site.pid]}
        if self.config != "one":
            parts["redis"] = descendants(self.parts[0].pid)
        if self.config == "two":
            parts["nginx"] = descendants(self.parts[-1].pid)
        if self.config != "one":
            parts["postgres"] = self.postgres_pids()
        return parts

    def moves_in_log(self, codes):
        """Moves stored per table code, read with the site's own settings."""
        script = (
            "import json,sys,django;django.setup();from games.models import Move;"
            "codes=json.loads(sys.stdin.read());"
            "from django.db.models import Count;"
            "print(json.dumps(dict(Move.objects.filter(table__code__in=codes).values_list('table__code')"
            ".annotate(n=Count('id')))))"
        )
        env = dict(self.env, DJANGO_SETTINGS_MODULE="hollywood_site.settings")
        result = subprocess.run([PYTHON, "-c", script], cwd=self.checkout, env=env, input=json.dumps(codes),
                                capture_output=True, text=True, check=True)
        return json.loads(result.stdout)

    def stop(self):
        for part in reversed(self.parts):
            part.stop()
        if self.postgres is not None:
            self.postgres.__exit__(None, None, None)  # stopped, its folder removed
        elif self.admin is not None:
            self.psql(f"DROP DATABASE IF EXISTS {self.admin[1]} WITH (FORCE)")
        self.directory.cleanup()


ECHO_SERVER = """
import asyncio, sys, websockets
async def echo(socket):
    async for message in socket:
        await socket.send(message)
async def main():
    async with websockets.serve(echo, "127.0.0.1", int(sys.argv[1]), compression=None):
        await asyncio.Future()
asyncio.run(main())
"""


class EchoServer:
    def __init__(self):
        self.port = processes.free_port()
        self.process = subprocess.Popen([PYTHON, "-c", ECHO_SERVER, str(self.port)])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex((HOST, self.port)) == 0:
                    return
            time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


# The frames floor: what sending a move's frames costs the server, and nothing else ---------------

# A bare ASGI app under the site's own uvicorn command: each move a table's JSON socket sends
# is answered, at once, by the frames this run's site sent for a move (recorded by the players
# and the pages: each socket gets its own seat's, in the order the site sent them, so that
# permessage-deflate meets the same repeats). No game, no database, no template, no channel
# layer: a move's CPU here is the sockets' own, the floor under the site's.
RELAY_APP = """
import json, os
FRAMES = json.load(open(os.environ["RELAY_FRAMES"]))  # {"json": [seat 0's, seat 1's], "html": [...]}
rooms = {}

async def app(scope, receive, send):
    if scope["type"] != "websocket":
        return
    _, kind, code, seat = scope["path"].strip("/").split("/")  # relay/<json|html>/<table>/<seat>
    await receive()
    await send({"type": "websocket.accept"})
    room = rooms.setdefault(code, {"json": {}, "html": {}, "moves": 0})
    room[kind][int(seat)] = send
    try:
        while (await receive())["type"] == "websocket.receive":
            number = room["moves"] = room["moves"] + 1
            for frames_kind in ("json", "html"):
                for reader, out in list(room[frames_kind].items()):
                    frames = FRAMES[frames_kind][reader]
                    await out({"type": "websocket.send", "text": frames[number % len(frames)]})
    finally:
        room[kind].pop(int(seat), None)
"""


FLOOR_MOVE = '{"type": "move"}'  # what the relay answers; it reads nothing of it


class FramesFloor:
    """RELAY_APP served by uvicorn with the site's flags (tests/processes.py), on `frames`."""

    def __init__(self, frames):
        self.directory = tempfile.TemporaryDirectory(prefix="hollywood-floor-")
        folder = Path(self.directory.name)
        (folder / "relay.py").write_text(RELAY_APP)
        (folder / "frames.json").write_text(json.dumps(frames))
        env = dict(os.environ, RELAY_FRAMES=str(folder / "frames.json"))
        self.port = processes.free_port()
        self.site = processes.Process(
            [PYTHON, "-m", "uvicorn", "relay:app", "--app-dir", str(folder), "--host", HOST, "--port", str(self.port),
             "--lifespan", "off", "--ws-max-size", "65536", "--log-level", "warning", "--no-access-log"],
            self.port, tempfile.TemporaryFile(), env=env)

    def stop(self):
        self.site.stop()
        self.directory.cleanup()


def relay_frames(run, table, pages):
    """The frames the site sent to the first table's sockets: each seat's JSON states, and
    with `pages` each seat's page frames."""
    _code, *tokens = table
    frames = {"json": [run.samples["json", token] for token in tokens]}
    frames["html"] = [run.samples["html", token] for token in tokens] if pages else []
    return frames


async def drive_floor(port, tables, seconds, pages, warm_up, when_warm):
    """Each table's two seats move in turn as fast as their frames come, as the site's
    players do at full speed, with the pages' sockets listening (`pages`)."""
    run = Run(time.monotonic() + warm_up)
    stop_at = run.counting_from + seconds

    async def seat(number, sock, ready):
        await ready.wait()
        sent = None
        if number == 0:  # seat 0 moves first, then each in turn
            sent = time.monotonic()
            await sock.send(FLOOR_MOVE)
        moves = 0
        while time.monotonic() < stop_at:
            try:
                await asyncio.wait_for(sock.recv(), ANSWER_TIMEOUT)
            except asyncio.TimeoutError:
                run.kinds["unanswered"] += 1
                return
            moves += 1
            if sent is not None:
                if sent >= run.counting_from:
                    run.latencies.append(time.monotonic() - sent)
                sent = None
            if moves % 2 == number:
                sent = time.monotonic()
                await sock.send(FLOOR_MOVE)

    async def page(sock):
        while time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(sock.recv(), max(0.05, stop_at - time.monotonic()))
            except asyncio.TimeoutError:
                return
            if time.monotonic() >= run.counting_from:
                run.frame_bytes.append(len(text))

    async def warm():
        await asyncio.sleep(max(0.0, run.counting_from - time.monotonic()))
        when_warm()

    async def table(number, ready):
        code, url = f"t{number}", f"ws://{HOST}:{port}/relay"
        async with contextlib.AsyncExitStack() as stack:
            seats = [await stack.enter_async_context(websockets.connect(f"{url}/json/{code}/{n}", compression=None))
                     for n in (0, 1)]
            views = [await stack.enter_async_context(websockets.connect(f"{url}/html/{code}/{n}", compression="deflate"))
                     for n in ((0, 1) if pages else ())]
            ready.set()
            await asyncio.gather(*(seat(n, sock, ready) for n, sock in enumerate(seats)), *(page(v) for v in views))

    tasks = [warm()] + [table(number, asyncio.Event()) for number in range(tables)]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    run.kinds.update(type(result).__name__ for result in results if isinstance(result, Exception))
    return run


def measure_floor(frames, tables, seconds, pages, warm_up=3.0):
    """(the floor's Run, its CPU ms a move)."""
    floor = FramesFloor(frames)
    try:
        cpu_before = []
        run = asyncio.run(drive_floor(floor.port, tables, seconds, pages, warm_up,
                                      lambda: cpu_before.append(cpu_seconds(descendants(floor.site.pid)))))
        used = cpu_seconds(descendants(floor.site.pid)) - cpu_before[0]
    finally:
        floor.stop()
    return run, 1000 * used / len(run.latencies) if run.latencies else float("nan")


# The players ---------------------------------------------------------------------------------

# Refusals a player here never causes (it moves only on a state that offers the move, at that
# state's version): when they come, the server caused them.
SERVER_CAUSED = ("stale", "not_your_turn")


def post(port, path, body):
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=30))


def choose(state):
    """A quick, legal, reasonable move: knock when allowed, else draw, else the best discard."""
    if state["knocks"]:
        return state["knocks"][0]["move"]
    for move in ("pass", "stock", "pile"):
        if move in state["legal_moves"]:
            return move
    discards = [move for move in state["legal_moves"] if move.startswith("discard ")]
    return min(discards, key=lambda move: state["discard_deadwood"][move[-2:]])


class Run:
    """What one run measured: the moves' latencies (sent → the mover's new state), the pages'
    (sent → the HTML frame of the new state on each player's page) and the pages' frames."""

    def __init__(self, counting_from=0.0):
        self.counting_from = counting_from  # the warm-up's end: nothing before it is counted
        self.latencies, self.acked, self.kinds = [], {}, collections.Counter()
        self.page_latencies, self.frame_bytes, self.frame_deflated, self.frame_alone = [], [], [], []
        self.sent = {}  # table code → (version the last move was chosen at, when it was sent)
        self.samples = collections.defaultdict(list)  # (kind, seat token) → the first frames it received

    def sample(self, kind, token, text):
        """Keep a socket's first frames, for the frames floor to send again (relay_frames)."""
        kept = self.samples[kind, token]
        if len(kept) < SAMPLED_FRAMES:
            kept.append(text)

    @property
    def errors(self):
        return sum(self.kinds.values())

    @property
    def server_caused(self):
        return sum(self.kinds[kind] for kind in SERVER_CAUSED)


async def play_seat(port, code, token, run, stop_at, pace, paced):
    url = f"ws://{HOST}:{port}/ws/api/tables/{code}/"
    async with websockets.connect(url, origin=f"http://{HOST}:{port}", compression=None, max_size=2 ** 20,
                                  additional_headers={"Authorization": f"Bearer {token}"}) as sock:
        sent = None  # (version the move was chosen at, when it was sent)
        pressed = set()
        while time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(sock.recv(), ANSWER_TIMEOUT)
            except asyncio.TimeoutError:
                if sent is not None:
                    run.kinds["unanswered"] += 1
                    sent = None
                    continue
                if time.monotonic() >= stop_at:
                    break
                continue
            frame = json.loads(text)
            if frame["type"] == "state":
                run.sample("json", token, text)
            if frame["type"] == "error":
                run.kinds[frame["code"]] += 1
                sent = None
                continue
            if sent is not None and frame["version"] > sent[0]:
                if sent[1] >= run.counting_from:
                    run.latencies.append(time.monotonic() - sent[1])
                run.acked[code] = run.acked.get(code, 0) + 1
                sent = None
            if sent is not None:
                continue
            sent = await answer(sock, frame, pace, paced, pressed)
            if sent is not None:
                run.sent[code] = sent


async def watch_page(port, code, token, run, stop_at):
    """A player's page: its socket open with the seat cookie, every frame received as a
    browser receives it (and sized, plain and deflated as permessage-deflate would send it)."""
    url = f"ws://{HOST}:{port}/ws/tables/{code}/"
    # permessage-deflate, as every browser asks for it: the server's CPU a move includes compressing
    # each frame, as it does for a real page.
    async with websockets.connect(url, origin=f"http://{HOST}:{port}", compression="deflate", max_size=2 ** 22,
                                  additional_headers={"Cookie": f"seat_{code}={token}"}) as sock:
        deflate = zlib.compressobj(wbits=-UVICORN_WINDOW_BITS, memLevel=UVICORN_MEM_LEVEL)
        timed = None  # the move whose page latency this page recorded
        while time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(sock.recv(), max(0.05, stop_at - time.monotonic()))
            except asyncio.TimeoutError:
                break
            frame = json.loads(text)
            if frame.get("type") != "state":
                continue
            run.sample("html", token, text)
            data = text.encode()
            # permessage-deflate drops the flush's 4-byte tail (RFC 7692).
            deflated = len(deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
            if time.monotonic() < run.counting_from:
                continue
            run.frame_bytes.append(len(data))
            run.frame_deflated.append(deflated)
            run.frame_alone.append(len(zlib.compress(data, wbits=-UVICORN_WINDOW_BITS)))
            sent = run.sent.get(code)
            if sent is not None and sent is not timed and frame["version"] > sent[0] and sent[1] >= run.counting_from:
                run.page_latencies.append(time.monotonic() - sent[1])
                timed = sent


async def answer(sock, state, pace, paced, pressed):
    """Send what this seat should do now; returns (version, sent at) for a move, else None.
    `pressed` holds the showdowns this seat already pressed on: a button is pressed once."""
    if state["match_over"] or state["hand_result"] is not None:
        showdown = (state["match_number"], state["hand_number"], state["match_over"])
        if showdown not in pressed:
            pressed.add(showdown)
            await sock.send(json.dumps({"type": "rematch" if state["match_over"] else "next_hand"}))
        return None
    if not state["legal_moves"]:
        return None
    if pace:
        wait = paced.get(state["code"], 0) + pace - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)  # the pace of a human: this is the load's shape, not a sync
        paced[state["code"]] = time.monotonic()
    move = choose(state)
    started = time.monotonic()
    await sock.send(json.dumps({"type": "move", "move": move, "version": state["version"]}))
    return state["version"], started


def open_tables(port, count, computer=None, scoring="hollywood"):
    """(code, token of each seat a person plays) of `count` new tables; against the computer
    when `computer` names its level (one token: seat 0's)."""
    tables = []
    for number in range(count):
        if computer:
            opened = post(port, "/api/tables", {"name": f"C{number}", "scoring": scoring, "computer": computer})
            tables.append((opened["code"], opened["token"]))
            continue
        opened = post(port, "/api/tables", {"name": f"A{number}", "scoring": scoring})
        joined = post(port, f"/api/tables/{opened['code']}/join", {"name": f"B{number}"})
        tables.append((opened["code"], opened["token"], joined["token"]))
    return tables


async def drive_tables(ports, tables, computer_tables, seconds, pace, pages, warm_up, when_warm):
    """Play every table for `warm_up` seconds, call `when_warm()`, and play on until `seconds`
    more have passed: (the human tables' run, the computer tables'), counted after the warm-up.
    Seat n's JSON socket goes to ports[n], its page to the other one."""
    counting_from = time.monotonic() + warm_up
    run, against_computer, paced = Run(counting_from), Run(counting_from), {}
    stop_at = counting_from + seconds

    async def warm():
        await asyncio.sleep(max(0.0, counting_from - time.monotonic()))
        when_warm()

    tasks = [warm()]
    for runs, opened in ((run, tables), (against_computer, computer_tables)):
        for code, *tokens in opened:
            for seat, token in enumerate(tokens):
                tasks.append(play_seat(ports[seat], code, token, runs, stop_at, pace, paced))
                if pages:
                    tasks.append(watch_page(ports[1 - seat], code, token, runs, stop_at))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    run.kinds.update(type(result).__name__ for result in results if isinstance(result, Exception))
    return run, against_computer


async def drive_echo(port, pairs, seconds, pace):
    run = Run()
    stop_at = time.monotonic() + seconds

    async def one():
        async with websockets.connect(f"ws://{HOST}:{port}/", compression=None) as sock:
            payload = json.dumps({"type": "move", "move": "discard 7H", "version": 1})
            while time.monotonic() < stop_at:
                started = time.monotonic()
                await sock.send(payload)
                await asyncio.wait_for(sock.recv(), ANSWER_TIMEOUT)
                run.latencies.append(time.monotonic() - started)
                if pace:
                    await asyncio.sleep(pace)

    results = await asyncio.gather(*(one() for _ in range(pairs)), return_exceptions=True)
    run.kinds.update(type(result).__name__ for result in results if isinstance(result, Exception))
    return run


# Profiling -----------------------------------------------------------------------------------

# py-spy from the virtualenv (requirements-dev.txt), or where PY_SPY says.
PY_SPY = os.environ.get("PY_SPY", str(Path(sys.executable).parent / "py-spy"))


def start_profile(pids, prefix, seconds):
    """py-spy on each site process for the run, sampling at 250 Hz, collapsed stacks."""
    return [(subprocess.Popen([PY_SPY, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "250", "-f", "raw",
                               "-o", f"{prefix}-{pid}.txt", "--nonblocking"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL), f"{prefix}-{pid}.txt") for pid in pids]


def frame_name(frame):
    """'function (path:line)' → 'function (path)' shortened to the project's or the library's."""
    function, _, place = frame.partition(" (")
    place = place.rstrip(")").rsplit(":", 1)[0]
    for marker in ("site-packages/", "/lib/python3.11/", str(ROOT) + "/"):
        if marker in place:
            place = place.split(marker, 1)[1]
    return f"{function} ({place})"


def profile_report(profiles, top=10):
    """The top costs by own time (the frame on top) and by time inclusive, idle waiting left out."""
    own, inclusive, total = collections.Counter(), collections.Counter(), 0
    for process, path in profiles:
        process.wait(timeout=60)
        if not Path(path).exists():
            continue
        for line in Path(path).read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = [frame_name(frame) for frame in stack.split(";") if frame]
            if not frames or frames[-1].startswith(("select ", "epoll_wait", "poll ", "wait ", "_worker (")):
                continue
            if any(name.startswith(("_worker (concurrent", "run (threading")) for name in frames[-1:]):
                continue
            total += int(count)
            own[frames[-1]] += int(count)
            for name in set(frames):
                inclusive[name] += int(count)
    if not total:
        print("   profile: no samples")
        return
    print(f"   profile: {total} busy samples; top {top} by own time, then by time inclusive")
    for name, count in own.most_common(top):
        print(f"     own {100 * count / total:5.1f}%  {name}")
    for name, count in inclusive.most_common(top + 12)[:top + 12]:
        print(f"     incl {100 * count / total:5.1f}%  {name}")


# Reporting -----------------------------------------------------------------------------------

def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(run, seconds):
    ms = [value * 1000 for value in run.latencies]
    pages = [value * 1000 for value in run.page_latencies]
    return {
        "rate": len(ms) / seconds,
        "p50": statistics.median(ms) if ms else float("nan"),
        "p95": percentile(ms, 0.95), "p99": percentile(ms, 0.99), "max": max(ms) if ms else float("nan"),
        "page_p50": statistics.median(pages) if pages else float("nan"), "page_p99": percentile(pages, 0.99),
        "frames": len(run.frame_bytes),
        "frame_bytes": statistics.median(run.frame_bytes) if run.frame_bytes else float("nan"),
        "frame_deflated": statistics.median(run.frame_deflated) if run.frame_deflated else float("nan"),
        "frame_alone": statistics.median(run.frame_alone) if run.frame_alone else float("nan"),
    }


def measure(config, tables, seconds, pace, database_url, path="json", affinity=True, computer_tables=0,
            level="expert", computer_pause=0.0, profile=None, warm_up=3.0, layer="direct", checkout=ROOT):
    server = Server(config, database_url, {"GAMES_COMPUTER_PAUSE": str(computer_pause), "REDIS_LAYER": layer}, checkout)
    echo = EchoServer()
    try:
        opened = open_tables(server.port, tables)
        against = open_tables(server.port, computer_tables, computer=level)
        rss_before = rss_mb(server.server_pids())
        cpu_before, profiles = {}, []

        def when_warm():
            cpu_before.update(server.cpu_reading())
            if profile:
                profiles.extend(start_profile(server.server_pids()[:len(server.sites)], profile, seconds))

        run, computer_run = asyncio.run(drive_tables(server.socket_ports(affinity), opened, against, seconds, pace,
                                                     path == "browser", warm_up, when_warm))
        cpu = {part: cpu_used(cpu_before[part], pids) for part, pids in server.cost_pids().items()}
        rss_after = rss_mb(server.server_pids())
        logged = server.moves_in_log([code for code, *_ in opened + against])
        lost = sum(max(0, acked - logged.get(code, 0))
                   for played in (run, computer_run) for code, acked in played.acked.items())
        floor = summary(asyncio.run(drive_echo(echo.port, tables, seconds, pace)), seconds)
    finally:
        server.stop()
        echo.stop()
    site = summary(run, seconds)
    # CPU a move: every move the server made, the computer's and its opponents' included.
    moves = len(run.latencies) + 2 * len(computer_run.latencies)
    frames_floor = None
    frames = relay_frames(run, opened[0], path == "browser") if opened else None
    if config == "one" and not pace and frames and all(all(kind) for kind in frames.values()):
        floor_run, floor_cpu = measure_floor(frames, tables, seconds, path == "browser")
        frames_floor = {**summary(floor_run, seconds), "cpu": floor_cpu, "errors": floor_run.errors}
    return {
        "config": config, "tables": tables, "pace": pace, **site, "errors": run.errors + computer_run.errors,
        "lost": lost, "error_kinds": dict(run.kinds + computer_run.kinds),
        "server_caused": run.server_caused + computer_run.server_caused,
        "path": path, "affinity": affinity, "layer": layer, "computer_tables": computer_tables, "level": level,
        "computer": summary(computer_run, seconds),
        "rss": (rss_before, rss_after),
        "cpu": {part: 1000 * used / moves if moves else float("nan") for part, used in cpu.items()},
        "floor": floor, "frames_floor": frames_floor, "profiles": profiles, "checkout": checkout,
    }


def commit_of(checkout):
    result = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    return result.stdout.strip()[:72] or "not a git checkout"


def report(row, name_the_checkout=False):
    floor = row["floor"]
    pace = f"every {row['pace']:g} s" if row["pace"] else "full speed"
    setup = row["path"] if row["config"] == "one" else f"{row['path']}, {row['layer']}" + (
        "" if row["affinity"] else ", no affinity")
    if name_the_checkout or row["checkout"] != ROOT:
        print(f"     the site served from {row['checkout']} ({commit_of(row['checkout'])}):")
    print(f"{row['config']:>6}  {setup:<8} N={row['tables']:<5} {pace:<12} {row['rate']:8.0f} moves/s  "
          f"p50 {row['p50']:7.1f}  p95 {row['p95']:7.1f}  p99 {row['p99']:7.1f}  max {row['max']:7.1f} ms  "
          f"errors {row['errors']}{row['error_kinds'] or ''}  server-caused refusals {row['server_caused']}  "
          f"lost {row['lost']}  RSS {row['rss'][0]:.0f}→{row['rss'][1]:.0f} MB  "
          f"CPU ms/move {sum(row['cpu'].values()):.2f} ("
          + ", ".join(f"{part} {value:.2f}" for part, value in row["cpu"].items()) + ")")
    if row["path"] == "browser":
        print(f"     pages: {row['frames']} frames, {row['frame_bytes'] / 1000:.1f} KB a frame "
              f"(deflated {row['frame_alone'] / 1000:.2f} KB alone, {row['frame_deflated'] / 1000:.2f} KB with context takeover), move → page p50 {row['page_p50']:7.1f}  "
              f"p99 {row['page_p99']:7.1f} ms")
    if row["computer_tables"]:
        computer = row["computer"]
        print(f"     {row['computer_tables']} tables against the computer ({row['level']}): "
              f"{computer['rate']:.0f} human moves/s, move → the computer's answer p50 {computer['p50']:.1f}  "
              f"p99 {computer['p99']:.1f} ms")
    print(f"     echo floor: {floor['rate']:8.0f} msgs/s   p50 {floor['p50']:7.1f}  p99 {floor['p99']:7.1f} ms   "
          f"ratios p50 ×{row['p50'] / floor['p50']:.1f}  p99 ×{row['p99'] / floor['p99']:.1f}", flush=True)
    frames_floor = row["frames_floor"]
    if frames_floor:
        site_cpu = sum(row["cpu"].values())
        print(f"     frames floor (uvicorn sending this run's own frames, no game): {frames_floor['rate']:6.0f} moves/s  "
              f"p50 {frames_floor['p50']:7.1f}  p99 {frames_floor['p99']:7.1f} ms  errors {frames_floor['errors']}  "
              f"CPU ms/move {frames_floor['cpu']:.2f}   the site ×{site_cpu / frames_floor['cpu']:.1f} its CPU, "
              f"{site_cpu - frames_floor['cpu']:.2f} ms above it", flush=True)
    if row["profiles"]:
        profile_report(row["profiles"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", choices=["one", "two", "one-pg", "both"], nargs="+", default=["both"],
                        help="both: one and two; one-pg beside two tells the second process's cost from the database's")
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 200])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", type=float, default=0, help="seconds between a table's moves; 0: full speed")
    parser.add_argument("--path", choices=["json", "browser"], nargs="+", default=["json"],
                        help="json: the JSON sockets alone; browser: the players' pages' sockets open too")
    parser.add_argument("--affinity", choices=["on", "off"], default="on",
                        help="off (with --config two): each seat's sockets straight to another process")
    parser.add_argument("--computer-tables", type=int, nargs="+", default=[0],
                        help="tables against the computer besides (several: one run each, side by side)")
    parser.add_argument("--level", default="expert", help="the computer's level at those tables")
    parser.add_argument("--computer-pause", type=float, default=0.0,
                        help="GAMES_COMPUTER_PAUSE for the run (0: the computer thinks at once)")
    parser.add_argument("--layer", choices=["direct", "pubsub", "core"], nargs="+", default=["direct"],
                        help="with --config two: REDIS_LAYER, how the processes tell each other (settings)")
    parser.add_argument("--profile", metavar="PREFIX", help="py-spy the site processes; files PREFIX-<pid>.txt")
    parser.add_argument("--site", type=Path, nargs="+", default=[ROOT],
                        help="checkouts to serve, each measured in turn in every run (say a worktree of an "
                             "earlier commit, then this one: before and after side by side); default this one")
    parser.add_argument("--rounds", type=int, default=1, help="each run this many times, the sites alternating")
    parser.add_argument("--warm-up", type=float, default=3.0,
                        help="seconds played before anything is counted (the tables arriving; default 3)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                        help="a PostgreSQL server to use (a fresh database on it) instead of a private one "
                             "of the run's own; its backends that end during a run are not counted")
    args = parser.parse_args()
    configs = [config for named in args.config for config in (["one", "two"] if named == "both" else [named])]
    runs = [(config, layer) for config in configs for layer in (args.layer if config != "one" else ["direct"])]
    for config, layer in runs:
        for tables in args.tables:
            for path in args.path:
                for computer_tables in args.computer_tables:
                    for _round in range(args.rounds):
                        for site in args.site:
                            report(measure(config, tables, args.seconds, args.pace, args.database_url, path,
                                           args.affinity == "on", computer_tables, args.level, args.computer_pause,
                                           args.profile, args.warm_up, layer=layer, checkout=site.resolve()),
                                   name_the_checkout=len(args.site) > 1)


if __name__ == "__main__":
    main()
