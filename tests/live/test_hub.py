"""The hub: a committed move reaches its player even when the channel layer fails."""

import pytest
from channels.db import database_sync_to_async
from tests.live.helpers import close, move_count, seated_sockets, state_at

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_shows_a_committed_move_to_its_player_when_the_announcement_fails(redis_layer, caplog):
    code, _, sockets, states = await seated_sockets()
    await database_sync_to_async(redis_layer)()
    mover, version = states[0]["to_move"], states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version})
    # The move counts and is shown, with no error frame on the way ("the table is unchanged").
    assert (await state_at(sockets[mover], version + 1))["version"] == version + 1
    assert await move_count(code) == 1
    await close(*sockets)  # the consumers have finished, their announcements tried
    assert [record for record in caplog.records if record.name == "games.live.hub"]
