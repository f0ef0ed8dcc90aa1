"""The hub's channel layers: channels' in-memory one made to scale with the tables of one
process, and Redis pub/sub for several processes (RedisPubSubLayer, below).

The in-memory layer is the one of the embedded defaults (no REDIS_URL). Channels' own walks every channel and
every group for expired messages on each receive and each group send, and sends to a group
through one task per member: with a thousand live tables that walk is most of a move's
time. This one expires at most once a second and sends to a group's members in turn.
"""

import asyncio
import time
import uuid

import orjson
import redis.asyncio
from channels.layers import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    cleaned = 0.0
    # Nothing sent on it leaves this process, and all a process hears on it is its own (which
    # the hub ignores): the hub tells its sockets itself and does not use it (games.live.hub).
    reaches_other_processes = False

    def _clean_expired(self):
        now = time.monotonic()
        if now - self.cleaned >= CLEAN_EVERY:
            self.cleaned = now
            super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass  # as Channels' layer does: a full channel misses the message


class RedisPubSubLayer:
    """The hub's layer across processes (REDIS_URL): Redis pub/sub through redis-py's asyncio
    client, one Redis channel a table group, messages in JSON (orjson).

    What games.live.hub asks of a layer and nothing more: a channel of this process's own,
    joining and leaving groups, sending to a group, receiving. A group send is one PUBLISH
    and a receive one read of the subscription's connection, where channels-redis's
    RedisChannelLayer runs a Lua script a send and polls a list a receive (most of a move's
    cost with two processes). Like any pub/sub, a message sent while a process was not
    subscribed (Redis restarting) never reaches it: the hub's check of the tables' versions
    catches up within seconds, as it does for the other layers' losses. A message a process
    sends reaches it too; the hub ignores its own.
    """

    extensions = ["groups"]
    # group_send returns how many processes received the message (this one's own included
    # when it listens): the hub keeps a table's changes to itself when it was the only one.
    counts_receivers = True

    def __init__(self, hosts=None, prefix="hollywood", **_ignored):
        host = (hosts or ["redis://127.0.0.1:6379/0"])[0]
        self.url = host if isinstance(host, str) else f"redis://{host[0]}:{host[1]}/0"
        self.prefix = prefix
        self.state = None  # the running loop's client and subscription (tests run several loops)

    def loop_state(self):
        loop = asyncio.get_running_loop()
        if self.state is None or self.state["loop"] is not loop:
            client = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=2)
            self.state = {"loop": loop, "client": client, "pubsub": client.pubsub(ignore_subscribe_messages=True),
                          "groups": {}, "queues": {}, "subscribed": asyncio.Event()}
        return self.state

    def key(self, group):
        return f"{self.prefix}:{group}"

    async def new_channel(self, prefix="specific."):
        channel = f"{prefix}{uuid.uuid4().hex}"
        self.loop_state()["queues"][channel] = asyncio.Queue()
        return channel

    async def group_add(self, group, channel):
        state = self.loop_state()
        state["groups"].setdefault(group, set()).add(channel)
        await state["pubsub"].subscribe(self.key(group))  # again after an outage: harmless
        state["subscribed"].set()

    async def group_discard(self, group, channel):
        state = self.loop_state()
        members = state["groups"].get(group, set())
        members.discard(channel)
        if not members:
            state["groups"].pop(group, None)
            await state["pubsub"].unsubscribe(self.key(group))

    async def group_send(self, group, message):
        return await self.loop_state()["client"].publish(self.key(group), orjson.dumps(message))

    async def send(self, channel, message):
        self.loop_state()["queues"][channel].put_nowait(message)

    async def receive(self, channel):
        """The next message for `channel`: read from the subscription by whichever receive
        finds its queue empty (the hub has one channel, so: by the hub's listener)."""
        state = self.loop_state()
        queue = state["queues"][channel]
        while queue.empty():
            await state["subscribed"].wait()
            heard = await state["pubsub"].get_message(ignore_subscribe_messages=True, timeout=None)
            if heard is None or heard.get("type") != "message":
                continue
            group = heard["channel"].decode()[len(self.prefix) + 1:]
            message = orjson.loads(heard["data"])
            for member in state["groups"].get(group, ()):
                state["queues"][member].put_nowait(message)
        return queue.get_nowait()

    async def flush(self):
        if self.state is not None:
            await self.state["pubsub"].aclose()
            await self.state["client"].aclose()
            self.state = None
