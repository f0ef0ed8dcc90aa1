"""What the table's group hears: only that it changed, and its version. Never a card."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_name(code):
    return f"table.{code}"


def changed(version):
    return {"type": "table.changed", "version": version}


async def tell(layer, code, version):
    """Send the table's group its new version; False if the channel layer failed.

    Never raises: the change it announces has committed, so a failed announcement (Redis
    down) must not turn into a refusal or an error page. The log gets the table and the
    version, which is all the message holds.
    """
    try:
        await layer.group_send(group_name(code), changed(version))
    except Exception:
        logger.exception("could not announce version %s of table %s", version, code)
        return False
    return True


def announce(code, version):
    """From synchronous code (an HTTP view): tell the table's sockets to re-render."""
    return async_to_sync(tell)(get_channel_layer(), code, version)


def revoke(code, seat):
    """From an HTTP view: close the sockets that hold `seat` (they authenticated with its old
    secret; reconnecting, they are spectators). A failure is logged: those sockets then
    keep playing until they reconnect."""
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(code), {"type": "seat.revoked", "seat": seat})
    except Exception:
        logger.exception("could not close the old sockets of table %s, seat %s", code, seat)
