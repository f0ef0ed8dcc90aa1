"""Channels' in-memory layer, made to scale with the tables of one process.

The layer of the embedded defaults (no REDIS_URL). Channels' own walks every channel and
every group for expired messages on each receive and each group send, and sends to a group
through one task per member: with a thousand live tables that walk is most of a move's
time. This one expires at most once a second and sends to a group's members in turn.
"""

import time

from channels.layers import ChannelFull
from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    cleaned = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self.cleaned >= CLEAN_EVERY:
            self.cleaned = now
            super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass  # as Channels' layer does: a full channel misses the message
