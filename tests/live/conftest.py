import pytest
from games.live.tables import live_tables


@pytest.fixture(autouse=True)
def empty_match_cache():
    # A rolled-back test frees its table ids for the next one: a match cached under
    # (id, version) must not outlive the test that cached it.
    live_tables.clear()
    yield
    live_tables.clear()


@pytest.fixture(scope="module")
def redis_url():
    """A private Redis server for the module's tests (dev.py's PrivateRedis), in every configuration."""
    from dev import PrivateRedis

    with PrivateRedis() as redis:
        yield redis.url


@pytest.fixture
def redis_layer(settings):
    """A private Redis server as the channel layer; yields `refuse_writes`, which makes it
    refuse every write from then on, as a full or failing Redis does.

    Started for the test and stopped after it; it never touches the machine's Redis.
    dev.py checks that redis-server is installed before the tests run.
    """
    import redis

    from dev import PrivateRedis

    with PrivateRedis() as server:
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [("127.0.0.1", server.port)]},
        }}
        client = redis.Redis(host="127.0.0.1", port=server.port)

        def refuse_writes(listening_to=None):
            """`listening_to`: a table code whose group gets a listener first, as a socket
            at the table would be (a group_send to an empty group writes nothing)."""
            if listening_to is not None:
                from asgiref.sync import async_to_sync
                from channels.layers import get_channel_layer

                from games.live.events import group_name
                layer = get_channel_layer()
                async_to_sync(layer.group_add)(group_name(listening_to), async_to_sync(layer.new_channel)())
            # Over maxmemory with the default noeviction policy, Redis refuses every
            # command that could grow it (a group_send), and still serves pops (a receive).
            client.config_set("maxmemory", 1)

        yield refuse_writes
        client.close()
