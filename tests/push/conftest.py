import pytest

from games.push.keys import new_private_key
from tests.push.endpoint import push_service  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def vapid_key(settings):
    settings.PUSH_VAPID_PRIVATE_KEY = new_private_key()
    settings.PUSH_TIMEOUT_SECONDS = 1
    return settings.PUSH_VAPID_PRIVATE_KEY
