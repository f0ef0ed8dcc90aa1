import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english_unless_a_test_says_otherwise():
    # A request through LocaleMiddleware activates its page's language for the rest of
    # the thread: each test starts in English and leaves no language behind for the next.
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    # The rate limits count per client address in the cache, and every test client is
    # 127.0.0.1: each test starts with no count, in a cache of its own (never a Redis the
    # environment names, which a clear() would empty).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache
    cache.clear()
