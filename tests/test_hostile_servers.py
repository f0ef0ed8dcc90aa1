"""A hostile client against the servers we ship, as real processes: the production command
(README: uvicorn) and what `python3 dev.py serve` starts. A client flooding its socket is
closed with 4429 at once and is sent nothing after the close; a 400 MB body is
refused with 413 before it is read.

benchmarks/flood.py measures the same servers' memory under a flood (daphne beside them).
"""

import asyncio
import base64
import json
import os
import socket
import urllib.request
import uuid

import pytest
import websockets

from tests import processes

# On one pytest-xdist worker (dev.py's --dist loadgroup), so each server below starts once.
pytestmark = pytest.mark.xdist_group("hostile-servers")

FLOOD_LIMITS = {"GAMES_WS_RATE_BURST": "5", "GAMES_WS_RATE_PER_SECOND": "1"}


def production(tmp_path, log):
    env = processes.site_env(f"sqlite:///{tmp_path}/site.sqlite3", **FLOOD_LIMITS)
    return env, lambda: processes.uvicorn(env, log=log)


def development(tmp_path, log):
    # As a person runs it: their own environment, development settings.
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path}/site.sqlite3", **FLOOD_LIMITS)
    return env, lambda: processes.dev_serve(env, log=log)


class Site:
    def __init__(self, server, path):
        self.server, self.log_path = server, path
        self.port = server.port

    def log(self):
        self.server.stop()
        return self.log_path.read_text(errors="replace")

    def post(self, path, body):
        request = urllib.request.Request(f"http://{processes.HOST}:{self.port}{path}", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request, timeout=10))

    def socket(self, code, token):
        return websockets.connect(f"ws://{processes.HOST}:{self.port}/ws/api/tables/{code}/",
                                  origin=f"http://{processes.HOST}:{self.port}",
                                  additional_headers={"Authorization": f"Bearer {token}"})


# One server of each kind for the module (each takes seconds to start). The flood's test comes
# last: it stops the server to read all that it logged.
@pytest.fixture(scope="module", params=[production, development], ids=["production", "dev.py serve"])
def site(request, tmp_path_factory, migrated_sqlite):
    tmp_path = tmp_path_factory.mktemp("site")
    migrated_sqlite(tmp_path)
    log_path = tmp_path / "server.log"
    env, start = request.param(tmp_path, open(log_path, "wb"))
    server = start()
    yield Site(server, log_path)
    server.stop()


def test_it_refuses_a_400_mb_body_with_413_before_reading_it(site):
    with socket.create_connection((processes.HOST, site.port), timeout=10) as client:
        client.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: 400000000\r\n\r\n" + b" " * 65536)
        answer = read_until_closed(client).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413"), answer
    assert "request_too_large" in answer


def read_until_closed(client):
    """All the server sent before it closed. A server that answers without reading the body
    closes with our bytes still unread in its socket, and its kernel then resets the
    connection: the answer it sent first is still ours to read, and the reset ends it."""
    answer = b""
    try:
        while chunk := client.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


def refused_status(site, path, origin):
    """The HTTP status of a handshake for `path` from `origin` that the server refuses."""
    async def handshake():
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with websockets.connect(f"ws://{processes.HOST}:{site.port}{path}", origin=origin):
                pass
        return refused.value.response.status_code
    return asyncio.run(handshake())


@pytest.mark.parametrize("path, foreign", [("/ws/no-such-{}/", False), ("/ws/api/tables/{}/", True)],
                         ids=["unknown path", "foreign origin"])
def test_it_refuses_a_hostile_handshake_with_403_and_one_log_line_without_a_traceback(site, path, foreign):
    path = path.format(uuid.uuid4().hex)  # its own, to count the log's lines that name it
    origin = "https://evil.example" if foreign else f"http://{processes.HOST}:{site.port}"
    assert refused_status(site, path, origin) == 403
    log = site.log_path.read_text(errors="replace")  # written before the answer was sent
    assert "Traceback" not in log and "ERROR" not in log, log
    assert len([line for line in log.splitlines() if path in line]) == 1, log


class SilentClient:
    """A WebSocket client that sends and reads but never answers a close, as a client that
    floods and does not read its socket never does: the server's consumer stays until the
    server gives up on it."""

    def __init__(self, site, code, token):
        self.socket = socket.create_connection((processes.HOST, site.port), timeout=10)
        self.socket.sendall(
            f"GET /ws/api/tables/{code}/ HTTP/1.1\r\nHost: {processes.HOST}:{site.port}\r\n"
            f"Origin: http://{processes.HOST}:{site.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode())
        self.received = b""
        while b"\r\n\r\n" not in self.received:
            self.received += self.socket.recv(4096)
        assert self.received.startswith(b"HTTP/1.1 101"), self.received
        self.received = self.received.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        data, mask = text.encode(), os.urandom(4)
        assert len(data) < 126
        self.socket.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def close_code(self):
        """Read frames until the server's close; its code."""
        while True:
            while len(self.received) < 2 or len(self.received) < 2 + self.received[1] + (2 if self.received[1] == 126 else 0):
                self.received += self.socket.recv(65536)
            opcode, length, header = self.received[0] & 0x0F, self.received[1], 2
            if length == 126:
                length, header = int.from_bytes(self.received[2:4], "big"), 4
            while len(self.received) < header + length:
                self.received += self.socket.recv(65536)
            payload, self.received = self.received[header:header + length], self.received[header + length:]
            if opcode == 0x8:
                return int.from_bytes(payload[:2], "big")


def test_it_closes_a_flooding_socket_with_4429_and_sends_it_nothing_afterwards(site):
    opened = site.post("/api/tables", {"name": "Ana"})
    joined = site.post(f"/api/tables/{opened['code']}/join", {"name": "Ben"})
    flooder = SilentClient(site, opened["code"], opened["token"])
    for _ in range(200):  # far past a burst's worth
        flooder.send('{"type": "next_hand"}')
    assert flooder.close_code() == 4429
    # The closed socket's client has not answered the close, and the table changes.
    asyncio.run(say_and_hear(site, opened["code"], joined["token"]))
    log = site.log()
    flooder.socket.close()
    assert "Unexpected ASGI message" not in log and "Traceback" not in log, log


async def say_and_hear(site, code, token):
    async with site.socket(code, token) as other:
        await other.send(json.dumps({"type": "chat", "text": "Still there?"}))
        while json.loads(await asyncio.wait_for(other.recv(), 10))["type"] != "chat":
            pass
