"""A long soak at a person's pace against one uvicorn process: is its memory flat?

    nohup nice -n 19 .venv/bin/python benchmarks/soak.py --tables 100 --minutes 60 > soak.log &
    .venv/bin/python benchmarks/soak.py --tables 50 --minutes 10 --tracemalloc   # what grows

One uvicorn process on a fresh SQLite file (production settings, the in-memory channel
layer). Each of --tables tables is played by its two seats over the JSON protocol, a move
every --pace seconds a table, with rematches when a match ends; each table also has a
spectator's page socket (HTML frames) and a chat line about once a minute. Every 20 s a
visitor opens a table, plays a few moves and leaves it. Once a minute it prints the server's
RSS, the moves so far and the errors.

With --tracemalloc the server traces its allocations (slower, and the traces take memory of
their own) and writes a snapshot after the first minute and at the end; the lines whose
memory grew most between them are printed. Load only goes to 127.0.0.1, every loop is
bounded in time, and every process started is stopped.
"""

import argparse
import asyncio
import collections
import json
import pickle
import random
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import HOST, ONE_ADDRESS_FOR_ALL, answer, descendants, open_tables, rss_mb, wait_for_http  # noqa: E402
from tests import processes  # noqa: E402

# The server, with tracemalloc when asked: SIGUSR1 writes a snapshot to SOAK_SNAPSHOT.N.
TRACED_SERVER = """
import os, pickle, signal, sys, tracemalloc
tracemalloc.start(int(os.environ.get("SOAK_FRAMES", "1")))
taken = [0]
def snapshot(*_):
    taken[0] += 1
    with open(f"{os.environ['SOAK_SNAPSHOT']}.{taken[0]}", "wb") as out:
        pickle.dump(tracemalloc.take_snapshot(), out)
signal.signal(signal.SIGUSR1, snapshot)
import uvicorn.main
sys.argv = ["uvicorn", *sys.argv[1:]]
uvicorn.main.main()
"""


class Tally:
    def __init__(self):
        self.moves, self.chats, self.visitors, self.errors = 0, 0, 0, collections.Counter()


def start_server(directory, traced):
    knobs = {"GAMES_WS_RATE_PER_SECOND": "100000", "GAMES_WS_RATE_BURST": "100000", **ONE_ADDRESS_FOR_ALL,
             "DJANGO_RATE_LIMITS": "open_table=100000/m,join=100000/m,connect=100000/m"}
    env = processes.site_env(f"sqlite:///{directory}/soak.sqlite3", **knobs,
                             SOAK_SNAPSHOT=f"{directory}/snapshot")
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    if not traced:
        return processes.uvicorn(env)
    port = processes.free_port()
    args = [sys.executable, "-c", TRACED_SERVER, "hollywood_site.asgi:application", "--host", HOST,
            "--port", str(port), "--lifespan", "off", "--ws-max-size", "65536", "--log-level", "warning",
            "--no-access-log"]
    return processes.Process(args, port, tempfile.TemporaryFile(), cwd=ROOT, env=env)


def connect(port, code, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    path = f"/ws/api/tables/{code}/" if token else f"/ws/tables/{code}/"
    return websockets.connect(f"ws://{HOST}:{port}{path}", origin=f"http://{HOST}:{port}", compression=None,
                              max_size=2 ** 20, additional_headers=headers)


async def seat(port, code, token, tally, stop_at, pace, paced, chat_every, moves=None):
    """One seat playing at `pace`; it says a line about every `chat_every` seconds (0: never).
    With `moves` ({"left": N}, shared by the table's two seats) both leave after N moves."""
    async with connect(port, code, token) as sock:
        pressed, sent, next_chat = set(), None, time.monotonic() + random.uniform(0, chat_every or 1)
        while time.monotonic() < stop_at and (moves is None or moves["left"] > 0):
            try:
                frame = json.loads(await asyncio.wait_for(sock.recv(), 10))
            except asyncio.TimeoutError:
                sent = None
                continue
            if frame["type"] == "error":
                tally.errors[frame["code"]] += 1
                sent = None
            if frame["type"] != "state":
                continue
            if sent is not None and frame["version"] > sent[0]:
                tally.moves += 1
                if moves is not None:
                    moves["left"] -= 1
                sent = None
            if chat_every and time.monotonic() > next_chat:
                next_chat += chat_every
                tally.chats += 1
                await sock.send(json.dumps({"type": "chat", "text": f"line {tally.chats}"}))
            if sent is None:
                sent = await answer(sock, frame, pace, paced, pressed)


async def spectator(port, code, stop_at):
    async with connect(port, code) as sock:
        while time.monotonic() < stop_at:
            try:
                await asyncio.wait_for(sock.recv(), max(0.1, stop_at - time.monotonic()))
            except asyncio.TimeoutError:
                pass


async def visitors(port, tally, stop_at, pace, scoring):
    while time.monotonic() < stop_at - 30:
        await asyncio.sleep(20)
        code, *tokens = (await asyncio.to_thread(open_tables, port, 1, scoring=scoring))[0]
        tally.visitors += 1
        paced, moves = {}, {"left": 10}
        await asyncio.gather(*(seat(port, code, token, tally, stop_at, pace, paced, 0, moves) for token in tokens),
                             return_exceptions=True)


async def monitor(server, tally, started, minutes, traced):
    pids = descendants(server.pid)
    for minute in range(minutes + 1):
        await asyncio.sleep(max(0, started + 60 * minute - time.monotonic()))
        print(f"minute {minute:3d}  RSS {rss_mb(pids):7.1f} MB  moves {tally.moves:7d}  chats {tally.chats:6d}  "
              f"visitors {tally.visitors:4d}  errors {dict(tally.errors) or 0}", flush=True)
        if traced and minute in (1, minutes):
            server.process.send_signal(signal.SIGUSR1)


async def soak(server, tables, minutes, pace, traced, scoring):
    tally, paced = Tally(), {}
    started = time.monotonic()
    stop_at = started + 60 * minutes + 5
    tasks = [monitor(server, tally, started, minutes, traced), visitors(server.port, tally, stop_at, pace, scoring)]
    for code, *tokens in tables:
        tasks += [seat(server.port, code, token, tally, stop_at, pace, paced, 60 if number == 0 else 0)
                  for number, token in enumerate(tokens)]
        tasks.append(spectator(server.port, code, stop_at))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors.update(type(result).__name__ for result in results if isinstance(result, Exception))
    return tally


def growth(directory, top=15):
    first, last = (pickle.loads(Path(f"{directory}/snapshot.{n}").read_bytes()) for n in (1, 2))
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    stats = last.filter_traces(ignore).compare_to(first.filter_traces(ignore), "lineno")
    print(f"\nWhat grew most from minute 1 to the end (tracemalloc, by line):")
    for stat in stats[:top]:
        print(f"  {stat.size_diff / 1024:+9.1f} KiB  {stat.count_diff:+7d} blocks  {stat.traceback[0]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--pace", type=float, default=3, help="seconds between a table's moves")
    parser.add_argument("--scoring", default="hollywood", choices=["hollywood", "game", "hand"],
                        help="the tables' scoring: a Hollywood match at a person's pace lasts longer than the soak")
    parser.add_argument("--tracemalloc", action="store_true", help="trace the server's allocations")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hollywood-soak-") as directory:
        with start_server(directory, args.tracemalloc) as server:
            wait_for_http(f"http://{HOST}:{server.port}/sitemap.xml")
            tables = open_tables(server.port, args.tables, scoring=args.scoring)
            print(f"{args.tables} {args.scoring} tables, a move every {args.pace:g} s a table, {args.minutes} minutes, "
                  f"uvicorn pid {server.pid}", flush=True)
            tally = asyncio.run(soak(server, tables, args.minutes, args.pace, args.tracemalloc, args.scoring))
            time.sleep(2)  # the last snapshot is written
        print(f"\n{tally.moves} moves, {tally.chats} chat lines, {tally.visitors} visitors, "
              f"errors {dict(tally.errors) or 0}", flush=True)
        if args.tracemalloc:
            growth(directory)


if __name__ == "__main__":
    main()
