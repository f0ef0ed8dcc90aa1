"""Faults under live play, against real processes: what the players see through each.

    .venv/bin/python benchmarks/faults.py                                  # every fault, 20 tables
    .venv/bin/python benchmarks/faults.py --faults quiet redis kill9 --tables 20 --seconds 30
    .venv/bin/python benchmarks/faults.py --site /tmp/before               # an earlier checkout
    .venv/bin/python benchmarks/faults.py --faults spectators --set GAMES_WS_MAX_SOCKETS_PER_TABLE=2000

Each fault runs on a cluster of its own: a private PostgreSQL and Redis (dev.py's), and two
uvicorn processes A and B with production settings, on the checkout --site. Every table's
seat 0 plays through A and seat 1 through B, so every move crosses Redis (the issue's worst
case). Each seat is a program on the JSON protocol that moves --pace seconds after its turn
comes, presses "next hand" and "rematch", tries a refused move again half a second later, and
opens its socket again 0.2-0.5 s after it closes. After a quiet third of --seconds the fault:

    quiet       none: the baseline for the other figures
    redis       Redis stopped and started on its port a second later; meanwhile every table's
                page is loaded, and afterwards every seat 1 drops its socket and opens it again
    kill9       process B killed with SIGKILL and started again on its port
    database    PostgreSQL stopped for --outage seconds; meanwhile every seat 1 opens its socket again
    flood       20 sockets (a table of their own, on A and B) send frames as fast as they can and
                never read, for a third of --seconds
    spectators  a thousand spectators' sockets on table 0 through A, closed after a third of --seconds

Nothing is counted in the first 3 s. Printed for each: tables stalled (a table that did not move for more than 5 s at some time
after the fault ended), stale first states (a socket's first state older than one the table
had already shown), moves lost (versions a seat was shown that the database does not have),
seconds to recover (the fault's end to the last table's first move after it), the p99 of a
move (sent to the mover's new state, ms) beside the quiet run's, how sockets opened during
the fault ended, and for spectators process A's RSS before, with them, and after they left.
Load only goes to 127.0.0.1, every wait is bounded, and every process started is stopped.
"""

import argparse
import asyncio
import base64
import collections
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import ONE_ADDRESS_FOR_ALL, answer, descendants, open_tables, percentile, rss_mb  # noqa: E402
from tests import processes  # noqa: E402

HOST = processes.HOST
STALL_SECONDS = 5
WARM_UP_SECONDS = 3  # the processes' first renders and connections: not counted
ANSWER_SECONDS = 10
# One address plays every table and opens a thousand sockets: far past a person's limits on
# opening tables and sockets. A socket's frames' budget and the cap on a table's sockets stay
# the production defaults: the flood and the spectators meet them.
KNOBS = {"DJANGO_RATE_LIMITS": "open_table=100000/m,join=100000/m,connect=100000/m", **ONE_ADDRESS_FOR_ALL}
FAULTS = ("quiet", "redis", "kill9", "database", "flood", "spectators")


class Cluster:
    """PostgreSQL, Redis and the site's processes A and B, on free ports, serving `checkout`."""

    def __init__(self, checkout, settings):
        self.checkout, self.postgres, self.redis, self.sites = checkout, None, None, []
        try:
            self.postgres = processes.PrivatePostgres()
            subprocess.run([self.postgres.bin / "createdb", "-h", HOST, "-p", str(self.postgres.port), "-U", "postgres",
                            "hollywood"], check=True, **self.postgres.quiet)
            self.redis = processes.PrivateRedis()
            self.env = processes.site_env(self.postgres.url, self.redis.url, **KNOBS, **settings)
            subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=checkout,
                           env=self.env, check=True)
            self.sites = [processes.uvicorn(self.env, root=checkout) for _ in range(2)]
        except BaseException:
            self.stop()
            raise

    def restart_redis(self, away):
        port = self.redis.port
        self.redis.stop()
        time.sleep(away)  # the fault's length
        self.redis = processes.PrivateRedis(port)

    def kill_and_restart(self, number, away):
        site = self.sites[number]
        site.kill()
        site.log.close()
        time.sleep(away)  # the fault's length
        self.sites[number] = processes.uvicorn(self.env, port=site.port, root=self.checkout)

    def versions(self, codes):
        """Each table's version as the database has it, read with the site's own settings."""
        script = ("import json,sys,django;django.setup();from games.models import Table;"
                  "codes=json.loads(sys.stdin.read());"
                  "print(json.dumps(dict(Table.objects.filter(code__in=codes).values_list('code','version'))))")
        result = subprocess.run([sys.executable, "-c", script], cwd=self.checkout, input=json.dumps(codes),
                                env=dict(self.env, DJANGO_SETTINGS_MODULE="hollywood_site.settings"),
                                capture_output=True, text=True, check=True)
        return json.loads(result.stdout)

    def stop(self):
        for site in self.sites:
            site.stop()
        if self.redis:
            self.redis.stop()
        if self.postgres:
            self.postgres.__exit__()


class Table:
    """What the table's seats were shown: its newest version, and when each new one came."""

    def __init__(self, code, tokens):
        self.code, self.tokens, self.latest, self.progress = code, tokens, -1, []

    def shown(self, version):
        if version > self.latest:
            self.latest = version
            self.progress.append(time.monotonic())


class Figures:
    def __init__(self):
        self.counting_from = time.monotonic() + WARM_UP_SECONDS
        self.latencies, self.stale, self.first_states = [], 0, 0
        self.opened_in_fault = collections.Counter()  # how sockets opened during the fault ended
        self.ended = collections.Counter()  # how every socket ended, after the warm-up
        self.fault = (float("inf"), float("inf"))  # (began, ended), monotonic
        self.stop_at = float("inf")  # play goes on a third of the run after the fault's end

    def note_open(self, opened_at, how):
        if self.fault[0] <= opened_at <= self.fault[1] + 2:
            self.opened_in_fault[how] += 1
        if time.monotonic() >= self.counting_from:
            self.ended[how] += 1


class Seat:
    """One seat's program: plays at `pace`, opens its socket again whenever it closes."""

    def __init__(self, table, number, port, figures, pace, paced):
        self.table, self.number, self.port, self.figures = table, number, port, figures
        self.pace, self.paced, self.pressed, self.socket = pace, paced, set(), None

    def drop(self):
        """Close the socket now: the seat opens it again, as a page that lost its network."""
        if self.socket is not None:
            asyncio.ensure_future(self.socket.close())

    async def play(self):
        while time.monotonic() < self.figures.stop_at:
            how, opened_at = "open until the end", time.monotonic()
            try:
                await self.session()
            except websockets.ConnectionClosed as closed:
                how = f"closed {closed.rcvd.code if closed.rcvd else 1006}"
            except websockets.InvalidStatus as refused:
                how = f"HTTP {refused.response.status_code}"
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as failed:
                how = type(failed).__name__
            self.figures.note_open(opened_at, how)
            await asyncio.sleep(random.uniform(0.2, 0.5))  # a page's back-off before it opens again

    async def session(self):
        url = f"ws://{HOST}:{self.port}/ws/api/tables/{self.table.code}/"
        async with websockets.connect(url, origin=f"http://{HOST}:{self.port}", compression=None,
                                      open_timeout=ANSWER_SECONDS, max_size=2 ** 20,
                                      additional_headers={"Authorization": f"Bearer {self.table.tokens[self.number]}"}) as sock:
            self.socket, first, state, sent = sock, True, None, None
            while time.monotonic() < self.figures.stop_at:
                try:
                    frame = json.loads(await asyncio.wait_for(sock.recv(), 0.5))
                except asyncio.TimeoutError:
                    if sent is not None and time.monotonic() - sent[1] > 3:
                        sent = None  # unanswered: tried again
                    if state is not None and sent is None:
                        sent = await self.act(sock, state)
                    continue
                if frame["type"] == "state":
                    if first and time.monotonic() >= self.figures.counting_from:
                        self.figures.first_states += 1
                        self.figures.stale += frame["version"] < self.table.latest
                    first = False
                    self.table.shown(frame["version"])
                    if sent is not None and frame["version"] > sent[0] and sent[1] >= self.figures.counting_from:
                        self.figures.latencies.append(time.monotonic() - sent[1])
                    state, sent = frame, None
                    sent = await self.act(sock, state)
                elif frame["type"] == "error" or (frame["type"] == "status" and frame.get("database")):
                    sent = None  # refused (or the database is back): tried again on the next half second
            self.socket = None

    async def act(self, sock, state):
        if state["version"] < self.table.latest:
            return None  # an old state: the newer one is on its way, or the gap is the fault's
        return await answer(sock, state, self.pace, self.paced, self.pressed)


class Flooder(threading.Thread):
    """A spectator's socket that sends frames as fast as it can and never reads; closed by
    the server, it opens another at once."""

    def __init__(self, port, code, until):
        super().__init__(daemon=True)
        self.port, self.code, self.until, self.sockets = port, code, until, 0

    def run(self):
        frames = masked('{"type": "move", "move": "stock", "version": 1}') * 64
        while time.monotonic() < self.until:
            try:
                self.flood(frames)
            except OSError:
                pass  # closed by the server: what it should do

    def flood(self, frames):
        with socket.create_connection((HOST, self.port), timeout=5) as raw:
            self.sockets += 1
            raw.sendall(f"GET /ws/tables/{self.code}/ HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                        f"Origin: http://{HOST}:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            while time.monotonic() < self.until:
                try:
                    raw.sendall(frames)
                except TimeoutError:
                    pass  # the server stopped reading: push on, as a hostile client does


def masked(text):
    data, mask = text.encode(), os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def spectate(port, code, until, opened):
    try:
        async with websockets.connect(f"ws://{HOST}:{port}/ws/tables/{code}/", origin=f"http://{HOST}:{port}",
                                      open_timeout=30, max_size=2 ** 22) as sock:
            await asyncio.wait_for(sock.recv(), ANSWER_SECONDS)  # its first state: it watches
            opened.append(1)
            while time.monotonic() < until:
                try:
                    await asyncio.wait_for(sock.recv(), max(0.05, until - time.monotonic()))
                except asyncio.TimeoutError:
                    pass
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
        pass


def load_page(port, code):
    try:
        urllib.request.urlopen(f"http://{HOST}:{port}/en/t/{code}/", timeout=ANSWER_SECONDS).read()
    except OSError:
        pass  # a page refused during the fault is not this figure


async def in_thread(function, *args):
    return await asyncio.get_running_loop().run_in_executor(None, function, *args)


async def inject(fault, cluster, tables, seats, figures, seconds, outage, extra):
    """Wait out the quiet third, then cause `fault`; marks when it began and ended."""
    await asyncio.sleep(seconds / 3)  # the quiet part of the run
    began = time.monotonic()
    figures.fault = (began, float("inf"))
    ports = [site.port for site in cluster.sites]
    if fault == "redis":
        restarting = asyncio.ensure_future(in_thread(cluster.restart_redis, 1.0))
        await asyncio.gather(*(in_thread(load_page, ports[n % 2], table.code) for n, table in enumerate(tables)))
        await restarting
    elif fault == "kill9":
        await in_thread(cluster.kill_and_restart, 1, 1.0)
    elif fault == "database":
        await in_thread(cluster.postgres.stop)
        for seat in seats:
            if seat.number == 1:
                seat.drop()
        await asyncio.sleep(outage)  # the outage's length
        await in_thread(cluster.postgres.start)
    elif fault == "flood":
        flood_code = extra["flood_table"][0]
        flooders = [Flooder(ports[n % 2], flood_code, began + seconds / 3) for n in range(20)]
        for flooder in flooders:
            flooder.start()
        await in_thread(lambda: [flooder.join() for flooder in flooders])
        extra["flood_sockets"] = sum(flooder.sockets for flooder in flooders)
    elif fault == "spectators":
        a = descendants(cluster.sites[0].pid)
        extra["rss"] = [rss_mb(a)]
        opened, until = [], began + seconds / 3
        watching = asyncio.gather(*(spectate(ports[0], tables[0].code, until, opened) for _ in range(1000)))
        await asyncio.sleep(seconds / 3 - 1)  # while they watch
        extra["rss"].append(rss_mb(a))
        await watching
        extra["opened"] = len(opened)
    figures.fault = (began, time.monotonic())
    figures.stop_at = figures.fault[1] + seconds / 3
    if fault == "redis":
        for seat in seats:
            if seat.number == 1:
                asyncio.get_running_loop().call_later(random.uniform(0, 2), seat.drop)
    if fault == "spectators":
        await asyncio.sleep(seconds / 3 - 2)  # time for the process to let go of them
        extra["rss"].append(rss_mb(descendants(cluster.sites[0].pid)))


def stalls(table, ended, stop_at):
    """The longest stretch without a move on `table` from `ended` to `stop_at`, and its first move after `ended`."""
    after = [moment for moment in table.progress if moment > ended]
    marks = [ended, *after, stop_at]
    return max(b - a for a, b in zip(marks, marks[1:])), (after[0] - ended if after else float("inf"))


async def drive(fault, cluster, tables, seconds, pace, outage, extra):
    figures, paced = Figures(), {}
    ports = [site.port for site in cluster.sites]
    seats = [Seat(table, number, ports[number], figures, pace, paced) for table in tables for number in (0, 1)]
    await asyncio.gather(*(seat.play() for seat in seats),
                         inject(fault, cluster, tables, seats, figures, seconds, outage, extra))
    return figures, figures.stop_at


def run_fault(fault, checkout, table_count, seconds, pace, outage, settings):
    cluster = Cluster(checkout, settings)
    try:
        opened = open_tables(cluster.sites[0].port, table_count + 1)
        tables = [Table(code, tokens) for code, *tokens in opened[:table_count]]
        extra = {"flood_table": opened[-1]}
        figures, stop_at = asyncio.run(drive(fault, cluster, tables, seconds, pace, outage, extra))
        stored = cluster.versions([table.code for table in tables])
    finally:
        cluster.stop()
    ended = figures.fault[1]
    gaps = [stalls(table, ended, stop_at) for table in tables]
    return {
        "fault": fault, "tables": table_count,
        "stalled": sum(longest > STALL_SECONDS for longest, _ in gaps),
        "stale": figures.stale, "first_states": figures.first_states,
        "lost": sum(max(0, table.latest - stored.get(table.code, 0)) for table in tables),
        "recover": max(first for _, first in gaps),
        "p99": 1000 * percentile(figures.latencies, 0.99), "moves": len(figures.latencies),
        "opened_in_fault": dict(figures.opened_in_fault), "rss": extra.get("rss"), "spectators": extra.get("opened"),
        "flood_sockets": extra.get("flood_sockets"), "ended": dict(figures.ended),
    }


def report(row, quiet_p99):
    beside = f" (quiet {quiet_p99:.0f})" if quiet_p99 is not None and row["fault"] != "quiet" else ""
    line = (f"{row['fault']:<11} stalled {row['stalled']:>2}/{row['tables']}  stale first states "
            f"{row['stale']:>2}/{row['first_states']:<3} lost {row['lost']}  recover {row['recover']:5.1f} s  "
            f"p99 {row['p99']:6.0f} ms{beside}  moves {row['moves']}")
    print(line, flush=True)
    print(f"{'':<11} how the seats' sockets ended: {row['ended']}", flush=True)
    if row["opened_in_fault"]:
        print(f"{'':<11} sockets opened during the fault: {row['opened_in_fault']}", flush=True)
    if row["flood_sockets"]:
        print(f"{'':<11} the 20 flooders opened {row['flood_sockets']} sockets, each flooding until closed", flush=True)
    if row["rss"]:
        print(f"{'':<11} {row['spectators']} spectators; process A's RSS before, with them, after: "
              + ", ".join(f"{mb:.0f} MB" for mb in row["rss"]), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faults", nargs="+", choices=FAULTS, default=list(FAULTS))
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30, help="each fault's run; the fault comes after a third")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds a seat waits before its move")
    parser.add_argument("--outage", type=float, default=5, help="seconds PostgreSQL is away")
    parser.add_argument("--site", type=Path, default=ROOT, help="the checkout served (an earlier commit's worktree)")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE", help="a setting of the site's, as its environment")
    arguments = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # unwind: every process started is stopped
    print(f"{arguments.site}: {subprocess.run(['git', '-C', str(arguments.site), 'log', '-1', '--format=%h %s'], capture_output=True, text=True).stdout.strip()[:70]}")
    print(f"{arguments.tables} tables, {arguments.seconds:.0f} s a fault, a move {arguments.pace} s after its turn",
          flush=True)
    quiet_p99 = None
    for fault in arguments.faults:
        row = run_fault(fault, arguments.site, arguments.tables, arguments.seconds, arguments.pace, arguments.outage,
                        dict(item.split("=", 1) for item in arguments.set))
        quiet_p99 = row["p99"] if fault == "quiet" else quiet_p99
        report(row, quiet_p99)


if __name__ == "__main__":
    main()
