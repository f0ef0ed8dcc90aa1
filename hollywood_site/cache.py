"""Django's Redis cache, except that a Redis outage is a miss instead of an exception.

The cache holds the rate limits' counts (games.live.limits) and the archive's finished matches
as built (games.archive.kept). With Redis down, Django's own backend raises on every call, and
opening or joining a table, or reading the archive, would be a server error; here the call fails
quietly (logged): django-ratelimit then fails open (RATELIMIT_FAIL_OPEN), the archive builds
each page anew, and the site goes on until Redis is back.
"""

import logging

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class ForgivingRedisCache(RedisCache):
    def add(self, *args, **kwargs):
        return self._quietly("add", False, *args, **kwargs)

    def get(self, *args, **kwargs):
        return self._quietly("get", None, *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._quietly("set", None, *args, **kwargs)

    def incr(self, *args, **kwargs):
        # django-ratelimit reads a ValueError as "no count": the rate is then not applied.
        result = self._quietly("incr", None, *args, **kwargs)
        if result is None:
            raise ValueError("the cache is unavailable")
        return result

    def _quietly(self, name, failed, *args, **kwargs):
        try:
            return getattr(super(), name)(*args, **kwargs)
        except RedisError:
            logger.warning("cache %s failed: rate limits are off, and nothing is kept, until Redis answers", name)
            return failed
