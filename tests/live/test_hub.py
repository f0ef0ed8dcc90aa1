"""The hub: a committed move reaches its player even when the channel layer fails; a crowded
table's comings and goings are shown together."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from uvicorn.protocols.utils import ClientDisconnected

from games.live import events, hub
from games.live.consumers import ApiTableConsumer, Life
from games.live.events import PROCESS
from tests.live.helpers import TIMEOUT, close, move_count, seated_sockets, state_at

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_shows_a_committed_move_to_its_player_when_the_announcement_fails(redis_layer, caplog):
    code, _, sockets, states = await seated_sockets()
    await database_sync_to_async(redis_layer)()
    mover, version = states[0]["to_move"], states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version})
    # The move counts and is shown, with no error frame on the way ("the table is unchanged").
    assert (await state_at(sockets[mover], version + 1))["version"] == version + 1
    assert await move_count(code) == 1
    await close(*sockets)  # the consumers have finished, their announcements tried
    assert [record for record in caplog.records if record.name == "games.live.hub"]


async def test_it_drops_a_change_quietly_for_a_socket_whose_client_has_just_gone(caplog):
    """The hub may tell a socket a change after its client went away and before the server's
    disconnect reached it; uvicorn then refuses the send with an OSError (ClientDisconnected),
    which is no fault of the table: nothing is logged as a failure, and nothing more is sent."""
    code, _, sockets, _ = await seated_sockets()
    tried = []

    async def gone(message):
        tried.append(message)
        raise ClientDisconnected()

    socket = ApiTableConsumer()
    socket.base_send, socket.code, socket.seat, socket.language = gone, code, 0, "en"
    socket.life = Life.OPEN  # shown its first state already
    await socket.hear({"type": "table.seats", "code": code, "origin": PROCESS})
    await socket.hear({"type": "table.chat", "code": code, "id": 1, "seat": 1, "name": "Ben", "text": "hi"})
    assert len(tried) == 1 and socket.life is Life.CLOSING
    assert not [record for record in caplog.records if record.levelname in ("ERROR", "WARNING")]
    await close(*sockets)


class FlakyLayer:
    """A channel layer whose group_add fails while `down`, and which hands the hub's listener
    the messages queued in `heard`."""

    reaches_other_processes = True

    def __init__(self):
        import asyncio
        self.down, self.joined, self.heard = False, [], asyncio.Queue()

    async def new_channel(self):
        return "hub"

    async def group_add(self, group, channel):
        if self.down:
            raise ConnectionError("the layer is down")
        self.joined.append(group)

    async def group_discard(self, group, channel):
        pass

    async def group_send(self, group, message):
        pass

    async def receive(self, channel):
        return await self.heard.get()


class Listening:
    """A socket as the hub sees one: what it hears, and what it was shown."""

    seat = None

    def __init__(self):
        import asyncio
        self.messages = asyncio.Queue()

    async def hear(self, message):
        await self.messages.put(message)

    def behind(self, version):
        return False


async def test_it_keeps_listening_after_a_message_it_cannot_deliver():
    import asyncio

    from games.live.hub import Hub
    layer, socket = FlakyLayer(), Listening()
    hub = Hub(layer)
    await hub.join("abc", socket)
    await layer.heard.put({"type": "table.changed", "origin": "another process"})  # no table: deliver fails
    await layer.heard.put({"type": "table.changed", "code": "abc", "origin": "another process", "version": 3})
    assert (await asyncio.wait_for(socket.messages.get(), 5))["version"] == 3
    hub.listener.cancel()
    hub.checker.cancel()


async def test_it_joins_a_table_s_group_again_once_the_layer_that_refused_it_is_back():
    from games.live.hub import Hub
    layer = FlakyLayer()
    layer.down = True
    hub = Hub(layer)
    await hub.join("abc", Listening())
    assert hub.unsubscribed == {"abc"} and layer.joined == []
    layer.down = False
    await hub.resubscribe()  # as the next check does
    assert hub.unsubscribed == set() and layer.joined == ["table.abc"]
    hub.listener.cancel()
    hub.checker.cancel()


class Listener:
    """A socket as the hub sees it: told what it hears, and `everyone` once all have heard."""

    def __init__(self, heard, crowd_size, everyone):
        self.heard, self.crowd_size, self.everyone = heard, crowd_size, everyone

    async def hear(self, message):
        self.heard.append(message)
        if len(self.heard) == self.crowd_size:
            self.everyone.set()


async def test_it_shows_a_crowded_tables_seat_changes_together_the_newest_alone(monkeypatch):
    monkeypatch.setattr(hub, "SEATS_EVERY_SECONDS", 0)
    crowded = hub.Hub(get_channel_layer())
    heard, everyone = [], asyncio.Event()
    crowd = [Listener(heard, hub.CROWD, everyone) for _ in range(hub.CROWD)]
    crowded.members["CROWDED"] = set(crowd)
    for version in range(10):  # ten spectators arriving, one after the other
        crowded.deliver("CROWDED", events.seats("CROWDED", version))
    assert heard == []  # none shown one by one
    await asyncio.wait_for(everyone.wait(), TIMEOUT)
    assert [message["version"] for message in heard] == [9] * hub.CROWD


@pytest.fixture
async def two_processes(redis_url, monkeypatch):
    """Two hubs on one private Redis (RedisPubSubLayer), standing for two server processes;
    and how many messages Redis has been asked to publish so far."""
    import uuid

    import redis

    from games.live.layers import RedisPubSubLayer
    monkeypatch.setattr(hub, "CHECK_SECONDS", 3600)  # no table of these is in the database
    prefix = f"hollywood-test-{uuid.uuid4().hex}"
    hubs = [hub.Hub(RedisPubSubLayer([redis_url], prefix), process=name) for name in ("here", "there")]
    client = redis.Redis.from_url(redis_url)

    def published():
        return client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)

    yield *hubs, published
    client.close()
    for running in hubs:
        for task in (running.listener, running.checker):
            if task is not None:
                task.cancel()
        await running.layer.flush()


async def versions_heard(socket, count):
    return [(await asyncio.wait_for(socket.messages.get(), TIMEOUT))["version"] for _ in range(count)]


async def test_it_tells_the_layer_nothing_of_a_table_no_other_process_listens_to(two_processes):
    here, _there, published = two_processes
    socket = Listening()
    await here.join("abc", socket)
    await here.send("abc", events.changed("abc", 1, origin=here.process))  # the count says: nobody else
    before = published()
    for version in range(2, 12):
        await here.send("abc", events.changed("abc", version, origin=here.process))
    assert published() == before
    assert await versions_heard(socket, 11) == list(range(1, 12))


async def test_it_tells_a_process_that_joins_a_table_every_change_made_after_it_joined(two_processes):
    here, there, _published = two_processes
    await here.join("abc", Listening())
    await here.send("abc", events.changed("abc", 1, origin=here.process))
    watching = Listening()
    await there.join("abc", watching)
    for version in (2, 3):
        await here.send("abc", events.changed("abc", version, origin=here.process))
    assert await versions_heard(watching, 2) == [2, 3]


async def test_it_keeps_a_table_to_itself_again_once_the_other_process_left_it(two_processes):
    here, there, published = two_processes
    await here.join("abc", Listening())
    watching = Listening()
    await there.join("abc", watching)
    await here.send("abc", events.changed("abc", 1, origin=here.process))
    await asyncio.wait_for(watching.messages.get(), TIMEOUT)
    await there.leave("abc", watching)
    await here.send("abc", events.changed("abc", 2, origin=here.process))  # heard by this process alone
    before = published()
    await here.send("abc", events.changed("abc", 3, origin=here.process))
    assert published() == before
