"""How often one client address may open tables, take seats and open sockets.

Counted by django-ratelimit in Django's cache, which is Redis when REDIS_URL is set, so
every server process shares the counts; the rates are the RATE_LIMITS setting. The
address is the ASGI server's idea of the client: behind a proxy, run the server with its
proxy-headers option so that it is the visitor's and not the proxy's (README).
"""

from asgiref.sync import sync_to_async
from django.conf import settings
from django_ratelimit.core import is_ratelimited

# A refused socket is accepted, then closed with this code: a close before accept() is an
# HTTP 403 that a browser sees only as 1006 (as the consumers' 4404).
CLOSE_RATE_LIMITED = 4429


def rate_for(group, request):
    """django-ratelimit's `rate`, read when it is needed: tests and deployments set it."""
    return settings.RATE_LIMITS[group]


def client_address(scope):
    client = scope.get("client")
    return client[0] if client else "unknown"


def socket_allowed(scope):
    """Count a new socket of this address; False once it opened too many recently."""
    address = client_address(scope)
    return not is_ratelimited(
        None, group="connect", key=lambda _group, _request: address, rate=rate_for, increment=True,
    )


async def admit_socket(consumer):
    """At a consumer's connect(): False (and the socket accepted and closed with 4429) when
    its address opened too many sockets; the consumer then returns at once."""
    # The cache may be Redis: off the event loop, and off the database's thread.
    if await sync_to_async(socket_allowed, thread_sensitive=False)(consumer.scope):
        return True
    await consumer.accept()
    await consumer.close(code=CLOSE_RATE_LIMITED)
    return False
