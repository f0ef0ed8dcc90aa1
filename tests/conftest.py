import shutil
import subprocess
import sys
import uuid

import pytest
import redis
from asgiref.sync import SyncToAsync
from django.db import connections
from django.utils import translation


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, and at the end the connection that live play's
    database thread keeps (games/live/database.py) closed before they are dropped:
    PostgreSQL refuses to drop a database that a session is still using."""
    yield
    # The sockets of in-process tests run their database calls in asgiref's one thread
    # for thread-sensitive calls made outside async_to_sync.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def english_unless_a_test_says_otherwise():
    # A request through LocaleMiddleware activates its page's language for the rest of
    # the thread: each test starts in English and leaves no language behind for the next.
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def a_channel_layer_of_the_tests_own(settings):
    """A fresh channel layer of the kind the environment chose (in memory, or Redis with
    REDIS_URL) for each test: a rolled-back test frees its table codes for the next one,
    so a group must not outlive the test that joined it.

    On Redis the test's keys carry a prefix of its own and are deleted afterwards; keys
    anyone else keeps on that Redis are never read or removed.
    """
    layer = settings.CHANNEL_LAYERS["default"]
    if "hosts" not in layer.get("CONFIG", {}):  # not on Redis
        settings.CHANNEL_LAYERS = {"default": dict(layer)}  # a changed setting makes channels build a new one
        yield
        return
    prefix = f"hollywood-test-{uuid.uuid4().hex}"
    settings.CHANNEL_LAYERS = {"default": {**layer, "CONFIG": {**layer["CONFIG"], "prefix": prefix}}}
    yield
    # Deleted with a client of its own: the layer's flush() waits out receives still
    # pending on the test's event loop, five seconds each.
    client = redis.Redis.from_url(layer["CONFIG"]["hosts"][0])
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture(autouse=True)
def one_address_for_every_socket_of_the_test(settings):
    """The test client's sockets all come from one address ("unknown": it gives none), as no
    visitors' do: its budget and cap are far off unless a test of them sets them, and a test
    that leaves a socket open does not count against the next."""
    from games.live import limits

    settings.GAMES_WS_ADDRESS_RATE_BURST = settings.GAMES_WS_ADDRESS_RATE_PER_SECOND = 100_000
    settings.GAMES_WS_MAX_SOCKETS_PER_ADDRESS = 100_000
    limits.addresses.clear()
    limits.tables.clear()
    yield
    limits.addresses.clear()
    limits.tables.clear()


@pytest.fixture(autouse=True)
def a_computer_that_does_not_pause(settings):
    # Its pause is for people to follow its moves; tests follow them by the states they get.
    settings.GAMES_COMPUTER_PAUSE = 0


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    # The rate limits count per client address in the cache, and every test client is
    # 127.0.0.1: each test starts with no count, in a cache of its own (never a Redis the
    # environment names, which a clear() would empty).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache
    cache.clear()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """A fresh SQLite file for a server process of a test's own, copied from one migrated once
    for the session (a migration takes seconds)."""
    from tests import processes

    template = tmp_path_factory.mktemp("migrated") / "site.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=processes.ROOT,
                   env=processes.site_env(f"sqlite:///{template}"), check=True)

    def copy(folder):
        shutil.copy(template, folder / "site.sqlite3")
        return f"sqlite:///{folder}/site.sqlite3"

    return copy
