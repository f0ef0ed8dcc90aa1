"""A push service on this machine, for tests without the internet: it records each message a
server posts (its headers and encrypted body), and answers as it is told (201, 410, or not
until released: a service that hangs). A subscriber (`Receiver`) holds the keys a browser
would make, so a test decrypts what arrived with them (http_ece), as the browser would."""

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Receiver:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self):
        return b64url(self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def auth_secret(self):
        return b64url(self.auth)

    def decrypt(self, body):
        return json.loads(http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth,
                                           version="aes128gcm"))


class PushService:
    def __init__(self):
        self.received = []  # (path, headers, body) of each message, in order
        self.status = 201
        self.release = threading.Event()  # a hanging service answers once this is set
        self.release.set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, {name.lower(): value for name, value in self.headers.items()}, body))
                service.release.wait(timeout=30)
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path="/push/1"):
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def hang(self):
        self.release.clear()

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.stop()
