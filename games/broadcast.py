"""What the table's group hears: only that it changed, and its version. Never a card."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(code):
    return f"table.{code}"


def changed(version):
    return {"type": "table.changed", "version": version}


def announce(code, version):
    """From synchronous code (an HTTP view): tell the table's sockets to re-render."""
    async_to_sync(get_channel_layer().group_send)(group_name(code), changed(version))
