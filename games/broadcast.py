"""What the table's group hears: that it changed, and its version; and the players' chat
lines, which are public. Never a card."""

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


def chat(line, name):
    """A chat line for the group: who said it and what, nothing else (no version: chat is
    not a game change)."""
    return {"type": "table.chat", "id": line.pk, "seat": line.seat, "name": name, "text": line.text}


async def tell_chat(layer, code, event):
    """Send the group a chat line; False if the channel layer failed (logged, never raised)."""
    try:
        await layer.group_send(group_name(code), event)
    except Exception:
        logger.exception("could not send a chat line at table %s", code)
        return False
    return True
