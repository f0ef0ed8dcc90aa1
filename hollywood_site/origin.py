"""A WebSocket is accepted only from a page of this very site: same scheme, host and port.

channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and
nothing else, so a page at http://gin.example.com:8443 could open the HTTPS site's sockets
(with its visitors' cookies). Here the Origin must be the origin the socket itself was
opened on: the Host header (one of ALLOWED_HOSTS) with the connection's scheme, as Django's
CSRF check compares a form's Origin with the request.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from hollywood_site.ws_refusal import refuse

DEFAULT_PORTS = {"http": 80, "https": 443}


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if is_same_origin(scope):
            return await self.application(scope, receive, send)
        return await refuse(scope, receive, send, "not from this site's own pages")


def header(scope, name):
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def is_secure(scope):
    """TLS to this server, or to a proxy in front that says so and is trusted to."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    return settings.TRUST_X_FORWARDED_PROTO and header(scope, b"x-forwarded-proto").lower() == "https"


def is_same_origin(scope):
    host = header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if is_secure(scope) else "http"
    return origin_key(header(scope, b"origin")) == origin_key(f"{scheme}://{host}")


def origin_key(origin):
    """(scheme, host, port) with the default port filled in; None for no valid origin."""
    try:
        parts = urlsplit(origin)
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port
