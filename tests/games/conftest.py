import pytest


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    # Tests never need Redis, whatever the environment says.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def empty_match_cache():
    # A rolled-back test frees its table ids for the next one: a match cached under
    # (id, version) must not outlive the test that cached it.
    from games import matches
    matches.cache.clear()
    yield
    matches.cache.clear()
