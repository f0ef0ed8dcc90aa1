"""The hub's layer across processes on Redis pub/sub (games.live.layers.RedisPubSubLayer): two
layers stand for two processes on one Redis: a private one of the test's own (dev.py's
PrivateRedis), in every configuration."""

import asyncio
import uuid

import pytest

from games.live.layers import RedisPubSubLayer


@pytest.fixture
def two_processes(redis_url):
    def layers():
        prefix = f"hollywood-test-{uuid.uuid4().hex}"
        return RedisPubSubLayer([redis_url], prefix), RedisPubSubLayer([redis_url], prefix)
    return layers


async def test_it_tells_a_change_to_every_process_listening_to_the_table_and_to_no_other(two_processes):
    here, there = two_processes()
    listening, elsewhere = await there.new_channel(), await there.new_channel()
    await there.group_add("table.A", listening)
    await there.group_add("table.B", elsewhere)
    await here.group_send("table.A", {"type": "table.changed", "code": "A", "version": 3, "origin": "here"})
    heard = await asyncio.wait_for(there.receive(listening), 10)
    assert heard == {"type": "table.changed", "code": "A", "version": 3, "origin": "here"}
    await there.group_send("table.B", {"type": "table.seats", "code": "B", "origin": "there"})
    assert (await asyncio.wait_for(there.receive(elsewhere), 10))["code"] == "B"
    assert there.loop_state()["queues"][listening].empty()
    await here.flush()
    await there.flush()


async def test_it_stops_telling_a_process_of_a_table_it_left(two_processes):
    here, there = two_processes()
    channel = await there.new_channel()
    await there.group_add("table.A", channel)
    await there.group_add("table.B", channel)
    await there.group_discard("table.A", channel)
    await here.group_send("table.A", {"type": "table.changed", "code": "A", "version": 1, "origin": "here"})
    await here.group_send("table.B", {"type": "table.changed", "code": "B", "version": 1, "origin": "here"})
    assert (await asyncio.wait_for(there.receive(channel), 10))["code"] == "B"  # A's came first, and was not heard
    await here.flush()
    await there.flush()


async def test_it_says_how_many_processes_received_a_message(two_processes):
    here, there = two_processes()
    message = {"type": "table.changed", "code": "A", "version": 1, "origin": "here"}
    assert await here.group_send("table.A", message) == 0
    await there.group_add("table.A", await there.new_channel())
    assert await here.group_send("table.A", message) == 1
    await here.group_add("table.A", await here.new_channel())
    assert await here.group_send("table.A", message) == 2
    await here.flush()
    await there.flush()
