"""`manage.py end_stale_tables`: tables nobody joined and matches nobody touched end, the
matches archived as abandoned (counted for no one); anything in use stays."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.archive.models import ArchivedMatch, Player, PlayerResult

from games.live.batch import send_now
from games.live.commands import Arrive, Play, Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def age(code, **delta):
    """Make the table look untouched for that long (update() leaves auto_now alone)."""
    Table.objects.filter(code=code).update(updated=timezone.now() - timedelta(**delta))


def seated(name="Ana"):
    code = open_table(name).table.code
    send_now(code, Sit("Ben")).answer
    return code


def run():
    output = StringIO()
    call_command("end_stale_tables", stdout=output)
    return output.getvalue()


def test_it_deletes_a_table_nobody_joined_for_a_day_and_its_lone_player():
    old = open_table("Ana").table.code
    fresh = open_table("Cyd").table.code
    age(old, hours=25)
    Player.objects.filter(name="Ana").update(created=timezone.now() - timedelta(hours=25))
    assert run().startswith("1 unjoined tables deleted")
    assert list(Table.objects.values_list("code", flat=True)) == [fresh]
    assert list(Player.objects.values_list("name", flat=True)) == ["Cyd"]


def test_it_keeps_an_unjoined_table_whose_creator_still_has_it_open():
    code = open_table("Ana").table.code
    age(code, hours=25)
    send_now(code, Arrive(0))  # her page's socket
    Seat.objects.update(last_seen=timezone.now() - timedelta(hours=25))  # opened long ago
    run()
    assert Table.objects.filter(code=code).exists()


def test_it_ends_a_match_nobody_touched_for_weeks_as_abandoned_and_deletes_its_table():
    code = seated()
    send_now(code, Play(live_tables.owner(code).snapshot.to_move, "pass"))  # the match is under way
    age(code, days=15)
    assert "1 idle tables deleted (1 matches abandoned)" in run()
    archived = ArchivedMatch.objects.get()
    assert (archived.status, archived.ending, archived.winner_seat) == ("abandoned", "left", None)
    assert not PlayerResult.objects.exists()
    assert not Table.objects.exists() and not Seat.objects.exists()
    # The players keep their identities: they have a match in the archive.
    assert Player.objects.count() == 2


def test_it_leaves_a_match_alone_that_was_played_recently():
    code = seated()
    age(code, days=13)
    run()
    assert ArchivedMatch.objects.get().status == "playing" and Table.objects.filter(code=code).exists()


def test_it_leaves_a_finished_match_as_it_was_and_deletes_only_the_idle_table():
    code = seated()
    archived = ArchivedMatch.objects.get()
    ArchivedMatch.objects.filter(pk=archived.pk).update(status="finished", ending="played", winner_seat=0)
    age(code, days=15)
    assert "(0 matches abandoned)" in run()
    assert ArchivedMatch.objects.get().status == "finished" and not Table.objects.exists()


def test_it_is_named_in_the_readme():
    from django.conf import settings
    assert "manage.py end_stale_tables" in (settings.BASE_DIR / "README.md").read_text()


@pytest.mark.django_db(transaction=True)
async def test_it_ends_the_sockets_of_a_table_it_deleted_with_a_message(monkeypatch):
    from channels.db import database_sync_to_async

    from games.live import hub
    from tests.live.helpers import api_socket, receive
    monkeypatch.setattr(hub, "CHECK_SECONDS", 0.2)
    code = await database_sync_to_async(seated)()
    watcher = await api_socket(code)  # a spectator keeps no table alive
    assert (await receive(watcher))["type"] == "state"
    await database_sync_to_async(age)(code, days=15)
    assert "1 idle tables deleted" in await database_sync_to_async(run)()
    await it_is_told_the_table_is_gone(watcher)


@pytest.mark.django_db(transaction=True)
async def test_it_ends_a_socket_whose_table_it_deleted_while_the_socket_was_arriving(monkeypatch):
    from channels.db import database_sync_to_async

    from games.live import hub
    from tests.live.helpers import api_socket
    code = await database_sync_to_async(seated)()
    publish = hub.publish

    async def cleanup_after_the_arrival(progress):
        await publish(progress)
        monkeypatch.setattr(hub, "publish", publish)  # only the arrival's
        await database_sync_to_async(age)(code, days=15)
        assert "1 idle tables deleted" in await database_sync_to_async(run)()

    monkeypatch.setattr(hub, "publish", cleanup_after_the_arrival)
    watcher = await api_socket(code)  # a spectator: its first state comes after the arrival
    await it_is_told_the_table_is_gone(watcher)


async def it_is_told_the_table_is_gone(watcher):
    """The socket hears why, is closed as a table that does not exist, and ends without an
    error (it had nothing to leave)."""
    from tests.live.helpers import receive
    frame = await receive(watcher)
    while frame["type"] != "error":
        frame = await receive(watcher)
    assert frame["code"] == "table_gone" and "closed" in frame["message"]
    closing = await watcher.receive_output(timeout=5)
    assert (closing["type"], closing["code"]) == ("websocket.close", 4404)
    await watcher.send_input({"type": "websocket.disconnect", "code": 4404})  # the page's side closes too
    await watcher.wait(timeout=5)  # the consumer's end, re-raising what it raised
