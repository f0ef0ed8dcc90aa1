"""Per client address: opening tables, taking seats and opening sockets are rate-limited
(429, or a socket closed with 4429), in the cache every process shares."""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Seat, Table

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from hollywood_site.asgi import application
from tests.live.helpers import HOST, ORIGIN, TIMEOUT

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(settings):
    # A day, not a minute: django-ratelimit counts in fixed windows, and a test whose requests
    # straddled a window's end (a loaded run on PostgreSQL, at 3/m) saw its fourth counted in
    # a fresh window and let through. The cache is cleared for every test (tests/conftest.py).
    settings.RATE_LIMITS = {"open_table": "3/d", "join": "3/d", "connect": "3/d"}


def api_open(client):
    return client.post("/api/tables", json.dumps({"name": "Ana"}), content_type="application/json",
                       HTTP_ACCEPT_LANGUAGE="es")


def test_it_refuses_the_api_table_over_the_rate_with_a_translated_429_and_opens_nothing(client, low_rates):
    assert [api_open(client).status_code for _ in range(3)] == [201] * 3
    refused = api_open(client)
    assert refused.status_code == 429
    assert refused.json()["error"] == {"code": "too_many_requests",
                                       "message": "Demasiadas solicitudes desde tu dirección; espera un minuto y vuelve a intentarlo."}
    assert Table.objects.count() == 3


def test_it_counts_each_address_on_its_own(client, low_rates):
    for _ in range(3):
        api_open(client)
    other = Client(REMOTE_ADDR="203.0.113.9")
    assert api_open(other).status_code == 201


def test_it_answers_a_browser_over_the_rate_with_the_sites_page(client, low_rates):
    for _ in range(3):
        client.post("/en/tables/open/", {"name": "Ana", "scoring": "hollywood", "target": "100"})
    refused = client.post("/de/tables/open/", {"name": "Ana", "scoring": "hollywood", "target": "100"})
    assert refused.status_code == 429
    assert "Zu viele Anfragen" in refused.content.decode() and 'class="site-header"' in refused.content.decode()
    assert Table.objects.count() == 3


def test_it_limits_joining_a_full_table_too(client, low_rates):
    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    answers = [client.post(f"/api/tables/{code}/join", json.dumps({"name": "Cyd"}),
                           content_type="application/json").status_code for _ in range(4)]
    assert answers == [409, 409, 409, 429]
    assert Seat.objects.count() == 2


async def connect(code, address):
    socket = WebsocketCommunicator(application, f"/ws/api/tables/{code}/", headers=[ORIGIN, HOST])
    socket.scope["client"] = (address, 50000)
    accepted, _ = await socket.connect(timeout=TIMEOUT)
    assert accepted
    return socket


@pytest.mark.django_db(transaction=True)
async def test_it_closes_a_socket_over_the_rate_with_4429_and_lets_another_address_in(low_rates):
    from channels.db import database_sync_to_async
    code = (await database_sync_to_async(open_table)("Ana")).table.code
    sockets = [await connect(code, "198.51.100.7") for _ in range(3)]
    for socket in sockets:
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    refused = await connect(code, "198.51.100.7")
    assert await refused.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4429}
    welcome = await connect(code, "198.51.100.8")
    assert (await welcome.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    for socket in [*sockets, welcome]:
        await socket.disconnect()


def test_it_keeps_the_counts_in_redis_when_the_site_runs_on_it(client, low_rates, redis_layer, settings):
    host, port = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]  # the test's private Redis
    settings.CACHES = {"default": {"BACKEND": "hollywood_site.cache.ForgivingRedisCache",
                                   "LOCATION": f"redis://{host}:{port}/0"}}
    assert [api_open(client).status_code for _ in range(4)] == [201, 201, 201, 429]
    import redis
    assert any(key.startswith(b":1:rl:") for key in redis.Redis(host=host, port=port).keys())


def test_it_lets_tables_open_when_redis_is_down_instead_of_failing(client, low_rates, settings):
    from dev import free_port
    settings.CACHES = {"default": {"BACKEND": "hollywood_site.cache.ForgivingRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}  # nothing listens
    assert [api_open(client).status_code for _ in range(4)] == [201] * 4
