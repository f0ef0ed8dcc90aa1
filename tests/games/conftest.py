import pytest


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    # Tests never need Redis, whatever the environment says.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
