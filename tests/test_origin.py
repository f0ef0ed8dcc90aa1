"""A table's socket opens only from a page of this very site: scheme, host and port all
match; X-Forwarded-Proto counts only when the settings say a proxy is trusted."""

import pytest
from channels.testing import WebsocketCommunicator

from hollywood_site.asgi import application
from tests.live.helpers import TIMEOUT, open_seated_table

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(code, origin, host="gin.example.com", scheme="wss", forwarded_proto=None):
    headers = [(b"origin", origin.encode()), (b"host", host.encode())]
    if forwarded_proto:
        headers.append((b"x-forwarded-proto", forwarded_proto.encode()))
    socket = WebsocketCommunicator(application, f"/ws/api/tables/{code}/", headers=headers)
    socket.scope["scheme"] = scheme
    accepted, _ = await socket.connect(timeout=TIMEOUT)
    await socket.disconnect()
    return accepted


@pytest.fixture
def https_site(settings):
    settings.ALLOWED_HOSTS = ["gin.example.com"]


@pytest.mark.parametrize("origin", [
    "http://gin.example.com:8443", "http://gin.example.com", "https://gin.example.com:8443",
    "https://evil.example", "https://gin.example.com.evil.example", "null", "", "https://[::1",
])
async def test_it_refuses_a_socket_from_another_origin_than_the_https_site(https_site, origin):
    code, _ = await open_seated_table()
    assert not await opens(code, origin)


@pytest.mark.parametrize("origin", ["https://gin.example.com", "https://GIN.example.com:443"])
async def test_it_accepts_a_socket_from_the_site_itself(https_site, origin):
    code, _ = await open_seated_table()
    assert await opens(code, origin)


async def test_it_refuses_a_host_that_is_not_allowed(https_site):
    code, _ = await open_seated_table()
    assert not await opens(code, "https://other.example", host="other.example")


async def test_it_ignores_x_forwarded_proto_unless_trusting_a_proxy_is_configured(https_site, settings):
    code, _ = await open_seated_table()
    settings.TRUST_X_FORWARDED_PROTO = False
    assert not await opens(code, "https://gin.example.com", scheme="ws", forwarded_proto="https")
    settings.TRUST_X_FORWARDED_PROTO = True
    assert await opens(code, "https://gin.example.com", scheme="ws", forwarded_proto="https")
