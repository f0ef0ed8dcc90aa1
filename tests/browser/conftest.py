"""A real site for real-browser tests: a daphne process (WebSockets included) on a
temporary SQLite file, and Chromium's headless shell driven by Playwright (Debian's
chromium-headless-shell, or Playwright's own download of it: see dev.py).

pytest-django's live_server is WSGI and cannot serve WebSockets, hence the process.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from dev import free_port, system_chromium
from tests.processes import TEST_VAPID_KEY

ROOT = Path(__file__).resolve().parents[2]
SERVER_START_SECONDS = 30
CHROMIUM_FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def wait_until_listening(port, process):
    """Poll the port until daphne accepts connections; fail fast if it died."""
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)  # a readiness poll, not synchronisation between test steps
    raise RuntimeError(f"daphne did not listen on port {port} within {SERVER_START_SECONDS}s")


@pytest.fixture(scope="session")
def live_server_env(tmp_path_factory):
    database = tmp_path_factory.mktemp("live-server") / "db.sqlite3"
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_DEBUG="true",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        GAMES_COMPUTER_PAUSE="0",
        # A player may claim the match as soon as the opponent has gone: no test waits two minutes.
        GAMES_CLAIM_AFTER_SECONDS="0",
        # Every move waits the double-tap guard (0.4 s) before table.js lets it be played: here it
        # is near zero, save for the tests of the guard itself (guarded_server_url).
        GAMES_MIN_SEEN_SECONDS="0.02",
        # The same cards on every run: a test that plays until someone may knock knocks at the
        # same move each time, instead of now and then meeting a deal that never offers a knock.
        GAMES_DEAL_SEED="browser",
        # Every test opens and joins tables from 127.0.0.1, a few seconds apart on a quiet machine:
        # past a person's rate limits (20 tables a minute), which answered a test 429 "Too many
        # requests" now and then. The limits themselves are tests/live/test_limits.py's.
        DJANGO_RATE_LIMITS="open_table=1000/m,join=1000/m,connect=3000/m",
        # Push notices configured, as on a deployed site: the table offers "Notify me".
        PUSH_VAPID_PRIVATE_KEY=TEST_VAPID_KEY,
    )
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    return env


class Daphne:
    """A daphne process that can be stopped and started again on the same port and database."""

    def __init__(self, env):
        self.env, self.port, self.process = env, free_port(), None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "hollywood_site.asgi:application"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env)
        try:
            wait_until_listening(self.port, self.process)
        except BaseException:
            self.stop()  # a server too slow to listen is not left running after the run
            raise

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def live_server_url(live_server_env):
    server = Daphne(live_server_env)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def guarded_server_url(live_server_env):
    """A site with the double-tap guard as production has it, for the tests of the guard."""
    server = Daphne(dict(live_server_env, GAMES_MIN_SEEN_SECONDS="0.4"))
    server.start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def committed_server_url(live_server_env):
    """A site whose tables deal from committed seeds, as in production: no GAMES_DEAL_SEED."""
    env = dict(live_server_env)
    env.pop("GAMES_DEAL_SEED")
    server = Daphne(env)
    server.start()
    yield server.url
    server.stop()


@pytest.fixture
def restartable_server(live_server_env):
    """A server of the test's own, which the test may stop and start again."""
    server = Daphne(live_server_env)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        # None: Playwright's own headless shell, which dev.py downloads where apt cannot install one.
        chromium = playwright.chromium.launch(executable_path=system_chromium() or None, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()
