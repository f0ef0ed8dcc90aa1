"""A hostile WebSocket client against one server process: memory before and after a flood.

    .venv/bin/python benchmarks/flood.py              # each server, 15 s each

The servers: uvicorn as production runs it (README), what `python3 dev.py serve` starts
(uvicorn, reloading, development settings), and daphne for comparison. Each run opens a table,
then 20 clients send frames as fast as they can without ever reading an answer (binary,
oversized and valid frames in turn), for --seconds; it prints the server's RSS before, at the
end of the flood, and 5 s later, and how many of the clients the server closed. (The server
closes such a client with 4429 — tests/test_hostile_servers.py — but a client that never reads
never sees it.) Load only goes to 127.0.0.1, and every process started is stopped.
"""

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import descendants, rss_mb  # noqa: E402
from tests import processes  # noqa: E402

FRAMES = [b"\x00" * 4096, "x" * 10_000, json.dumps({"type": "next_hand"})]


def daphne(env):
    port = processes.free_port()
    args = [sys.executable, "-m", "daphne", "-b", processes.HOST, "-p", str(port), "hollywood_site.asgi:application"]
    return processes.Process(args, port, tempfile.TemporaryFile(), cwd=ROOT, env=env)


async def flood(port, code, seconds):
    async def one():
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/api/tables/{code}/", origin=f"http://127.0.0.1:{port}",
                                      max_queue=1) as socket:
            stop = time.monotonic() + seconds
            while time.monotonic() < stop:
                for frame in FRAMES:
                    await socket.send(frame)

    results = await asyncio.gather(*(one() for _ in range(20)), return_exceptions=True)
    return sum(isinstance(result, websockets.ConnectionClosed) for result in results)


def measure(name, start, seconds, debug="false"):
    directory = tempfile.mkdtemp(prefix="hollywood-flood-")
    env = processes.site_env(f"sqlite:///{directory}/flood.sqlite3", DJANGO_DEBUG=debug)
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    with start(env) as server:
        request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/tables", b'{"name": "Ana"}',
                                         {"Content-Type": "application/json"})
        code = json.load(urllib.request.urlopen(request))["code"]
        before = rss_mb(descendants(server.pid))
        closed = asyncio.run(flood(server.port, code, seconds))
        during = rss_mb(descendants(server.pid))
        time.sleep(5)  # what the process gives back once the flood is over
        after = rss_mb(descendants(server.pid))
    print(f"{name:>13}: RSS {before:.0f} MB before, {during:.0f} MB after {seconds:g} s of flood,"
          f" {after:.0f} MB 5 s later; {closed} of 20 clients closed by the server", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    measure("uvicorn", lambda env: processes.uvicorn(env), args.seconds)
    measure("dev.py serve", lambda env: processes.dev_serve(env), args.seconds, debug="true")
    measure("daphne", daphne, args.seconds)


if __name__ == "__main__":
    main()
