"""Seats over the socket: presence, a foreign origin, a renewed secret, an unknown table, the creator told of the friend, a crash."""

import pytest
from channels.db import database_sync_to_async

from games.live.batch import send_now
from games.live.commands import Arrive, Leave, RenewSecret
from games.live.opening import open_table
from games.live.tables import seat_for
from games.models import Table
from tests.live.helpers import (
    HOST, ORIGIN, api_socket, close, open_seated_table, receive, seated_sockets, seated_table, state_where,
)

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def join_by_api(code):
    from django.test import Client
    return Client().post(f"/api/tables/{code}/join", {"name": "Ben"}, content_type="application/json")


async def test_it_tells_the_opponent_when_a_player_leaves():
    _, _, sockets, states = await seated_sockets()
    await sockets[1].disconnect()
    state = await state_where(sockets[0], lambda state: not state["players"][1]["connected"])
    assert state["players"][0]["connected"]
    await close(sockets[0])


async def test_it_refuses_a_socket_from_a_foreign_origin():
    code, tokens = await open_seated_table()
    from channels.testing import WebsocketCommunicator
    from hollywood_site.asgi import application
    socket = WebsocketCommunicator(application, f"/ws/api/tables/{code}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await socket.connect()
    assert not connected


async def test_it_closes_the_old_devices_sockets_when_a_seat_is_renewed_and_seats_them_no_more():
    code, tokens = await open_seated_table()
    old_device = await api_socket(code, tokens[0])
    await state_where(old_device, lambda state: state["seat"] == 0)
    # The renewal publishes its own event: every socket with the old secret is closed.
    _, new_token = (await database_sync_to_async(send_now)(code, RenewSecret(tokens[0]))).answer
    while (event := await old_device.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert event["code"] == 4401
    # The page's side closes too, and the consumer's end (its presence given back) is awaited:
    # left running, its write could still hold the table's lock when the test's teardown
    # flushes the database (seen once: "database table is locked: games_presence").
    await old_device.send_input({"type": "websocket.disconnect", "code": 4401})
    await old_device.wait(timeout=5)
    again = await api_socket(code, tokens[0])
    assert (await receive(again))["seat"] is None
    renewed = await api_socket(code, new_token)
    assert (await state_where(renewed, lambda state: True))["seat"] == 0
    await close(again, renewed)


async def test_it_closes_a_socket_for_an_unknown_table():
    from channels.testing import WebsocketCommunicator
    from hollywood_site.asgi import application
    for path in ("/ws/api/tables/nope/", "/ws/tables/nope/"):
        socket = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
        connected, _ = await socket.connect()
        # Accepted, then closed with 4404: a browser sees the code and stops retrying.
        assert connected
        assert await socket.receive_output() == {"type": "websocket.close", "code": 4404}


async def test_it_tells_the_creator_at_once_when_someone_takes_the_free_seat():
    table, _, token, *_ = await database_sync_to_async(open_table)("Ana")
    socket = await api_socket(table.code, token)
    first = await receive(socket)
    assert first["players"][1] is None
    assert (await join_by_api(table.code)).status_code == 200
    joined = await state_where(socket, lambda state: state["players"][1] is not None)
    assert joined["players"][1]["name"] == "Ben" and joined["to_move"] is not None
    await socket.disconnect()


async def test_it_beats_the_presence_of_this_processs_sockets_in_one_statement():
    from games.live.tables import beat_this_process
    from games.models import Presence
    code, tokens, sockets, states = await seated_sockets()
    before = await database_sync_to_async(lambda: sorted(Presence.objects.values_list("beat", flat=True)))()
    await database_sync_to_async(beat_this_process)()
    after = await database_sync_to_async(lambda: sorted(Presence.objects.values_list("beat", flat=True)))()
    assert len(after) == 2 and all(new > old for new, old in zip(after, before))
    await close(*sockets)


async def test_it_ends_a_seats_presence_when_its_socket_crashes(monkeypatch):
    from games.live.consumers import TableConsumer

    code, tokens, sockets, states = await seated_sockets()

    async def crash(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug outside any handler")

    monkeypatch.setattr(TableConsumer, "receive", crash)
    await sockets[0].send_to(text_data="{}")
    with pytest.raises(RuntimeError):
        await sockets[0].wait(timeout=5)  # the consumer's end, re-raising what it raised
    # However the socket ended, its seat no longer counts it.
    from games.models import Presence
    counted = await database_sync_to_async(lambda: Presence.objects.get(seat__table__code=code, seat__number=0))()
    assert counted.connections == 0
    state = await state_where(sockets[1], lambda state: not state["players"][0]["connected"])
    assert state["players"][1]["connected"]
    await sockets[1].disconnect()


def test_it_finds_a_seat_only_by_its_exact_token():
    table, _, token, *_ = open_table("Ana")
    assert seat_for(table.code, token) == 0
    assert seat_for(table.code, token + "x") is None
    assert seat_for(table.code, None) is None


def test_it_counts_presence_without_going_below_zero():
    from games.models import Presence
    table, _, _ = seated_table()
    send_now(table.code, Leave(0))
    send_now(table.code, Arrive(0))
    counted = dict(Presence.objects.values_list("seat__number", "connections"))
    assert counted == {0: 1}
    assert Table.objects.get().version == table.version


def test_it_counts_a_seats_sockets_coming_and_going_in_two_statements_each():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live import store
    from games.models import Presence, Seat
    table, _, _ = seated_table()
    Presence.objects.all().delete()
    with CaptureQueriesContext(connection) as queries:
        store.count_connection(table, 1, True)  # the seat's first socket here
        store.count_connection(table, 1, True)
        store.count_connection(table, 1, False)
    assert len(queries) == 6
    assert dict(Presence.objects.values_list("seat__number", "connections")) == {1: 1}
    assert Seat.objects.get(table=table, number=1).last_seen is not None


def test_it_counts_no_socket_for_a_seat_nobody_took():
    from games.live import store
    from games.models import Presence
    table, *_ = open_table("Ana")
    store.count_connection(table, 1, True)
    assert not Presence.objects.filter(seat__number=1).exists()


def test_it_shows_a_seat_offline_once_the_server_holding_its_socket_stops_beating(settings):
    from datetime import timedelta

    from django.utils import timezone

    from games.live import store
    from games.live.presence import is_present
    from games.models import Presence, Seat
    settings.GAMES_PRESENCE_TIMEOUT_SECONDS = 30
    table, _, _ = seated_table()
    now = timezone.now()
    Presence.objects.create(seat=Seat.objects.get(table=table, number=0), process="another-process",
                            connections=1, beat=now - timedelta(seconds=10))
    seat = store.seat_rows(table)[0]
    assert is_present(seat, now)
    assert not is_present(seat, now + timedelta(seconds=25))  # 35 s without a beat: that server is gone
