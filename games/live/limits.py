"""How often one client address may open tables, take seats and open sockets, and how many
sockets and frames it and a table may have in a server process.

The rates of opening are counted by django-ratelimit in Django's cache, which is Redis when
REDIS_URL is set, so every server process shares the counts; the rates are the RATE_LIMITS
setting. What is open now (sockets of an address and of a table, frames a second of an
address) is counted by each process for itself, in memory: it costs nothing a frame, and
with nginx's table affinity a table's sockets are in one process anyway. The address is the
ASGI server's idea of the client: behind a proxy, run the server with its proxy-headers
option so that it is the visitor's and not the proxy's (README).
"""

from asgiref.sync import sync_to_async
from django.conf import settings
from django_ratelimit.core import is_ratelimited

from games.live.flood import RateLimit
from games.live.memory import crowd
from games.rates import rate_for

# A refused socket is accepted, then closed with this code: a close before accept() is an
# HTTP 403 that a browser sees only as 1006 (as the consumers' 4404). A socket past its
# frames' budget, or its address's, is closed with it too.
CLOSE_RATE_LIMITED = 4429
# The close's reason, for programs (docs/protocol.md); table.js waits 20-40 s on 4429.
TOO_MANY_SOCKETS_FROM_ADDRESS = "too many sockets from this address"
TOO_MANY_SOCKETS_AT_TABLE = "too many sockets at this table"
TOO_MANY_FRAMES = "too many frames"


class Address:
    """One client address's sockets open in this process, and its frames' budget."""

    def __init__(self, address):
        self.address = address
        self.sockets = 0
        self.frames = RateLimit(settings.GAMES_WS_ADDRESS_RATE_BURST, settings.GAMES_WS_ADDRESS_RATE_PER_SECOND)


addresses = {}  # address → Address, while it has a socket open here
tables = {}  # table code → its sockets open here, counted from the handshake on


def refusal(address, code):
    """Why a socket of `address` at table `code` is refused now, else None."""
    if tables.get(code, 0) >= settings.GAMES_WS_MAX_SOCKETS_PER_TABLE:
        return TOO_MANY_SOCKETS_AT_TABLE
    held = addresses.get(address)
    if held is not None and held.sockets >= settings.GAMES_WS_MAX_SOCKETS_PER_ADDRESS:
        return TOO_MANY_SOCKETS_FROM_ADDRESS
    return None


def take_socket(address, code):
    """Count a socket of `address` at table `code` until release_socket, from the handshake on:
    a thousand handshakes at once would all find the table still empty. Returns the Address
    it counts against, which release_socket is given back."""
    held = addresses.setdefault(address, Address(address))
    held.sockets += 1
    tables[code] = tables.get(code, 0) + 1
    crowd.joined()
    return held


def release_socket(held, code):
    """Uncount a socket. Only `held`'s own count drops: a socket counted against an Address
    that has since been forgotten never touches the one now in its place."""
    held.sockets -= 1
    crowd.left()
    if held.sockets <= 0 and addresses.get(held.address) is held:
        del addresses[held.address]
    tables[code] = tables.get(code, 1) - 1
    if tables[code] <= 0:
        del tables[code]


def frame_allowed(address):
    """A frame from `address` within the budget all its sockets here share."""
    held = addresses.get(address)
    return held is None or held.frames.allow()


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
