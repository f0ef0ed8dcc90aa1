"""A pace of days a turn: chosen at the form and in the API, timed by the stored deadline with
a bank over the whole match, and a seat whose time runs out loses the match "out of time",
which the archive and the stats keep like any other ending."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django_tasks.backends.database.models import DBTaskResult
from django.utils import timezone

from games.archive.models import ArchivedMatch, PlayerResult
from games.errors import GameError
from games.live import clock
from games.live.batch import send_now
from games.live.commands import ClockForfeit, Play, Sit
from games.live.opening import open_table
from games.live.tables import clock_turn, live_tables, refreshed
from games.live.render import live_context
from games.models import Move, Table
from tests.live.helpers import time_runs_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def a_bank_of_a_day(settings):
    settings.GAMES_PACE_BANK_HOURS = 24


def paced_table(days=2):
    seated = open_table("Ana", deal_seed="pace", pace=days)
    ben = send_now(seated.table.code, Sit("Ben")).answer
    return seated.table.code, {0: seated.token, 1: ben.token}


def test_the_deadline_is_the_days_of_a_turn_and_the_bank_and_a_restart_keeps_it():
    before = timezone.now()
    code, _ = paced_table(2)
    table = Table.objects.get()
    assert table.pace == 2 and table.clock == 0 and table.clock_banks == [24 * 3600.0] * 2
    assert before + timedelta(days=3) <= table.clock_deadline <= timezone.now() + timedelta(days=3)
    live_tables.clear()
    state = live_tables.owner(code).snapshot.state_for(None)
    assert state["clock"]["pace"] == 2 and state["clock"]["deadline"] == table.clock_deadline.isoformat()


@pytest.mark.parametrize("chosen", [4, "1", True, -1])
def test_it_refuses_a_pace_it_does_not_offer(chosen):
    with pytest.raises(GameError) as refused:
        open_table("Ana", pace=chosen)
    assert refused.value.code == "bad_pace" and not Table.objects.exists()


def test_it_refuses_a_turn_clock_and_a_pace_of_days_together():
    with pytest.raises(GameError) as refused:
        open_table("Ana", clock=30, pace=1)
    assert refused.value.code == "bad_pace"


async def test_a_seat_whose_time_runs_out_loses_the_match_out_of_time_and_nothing_is_played_for_it():
    code, _ = await database_sync_to_async(paced_table)()
    await database_sync_to_async(time_runs_out)(code)
    turn = await database_sync_to_async(clock_turn)(code)
    assert isinstance(turn.command, ClockForfeit)
    await asyncio.wait_for(clock.run_out(code), timeout=10)
    assert not await database_sync_to_async(Move.objects.exists)()
    state = (await database_sync_to_async(refreshed)(code)).state_for(None)
    assert state["match_over"] and state["ending"] == "time" and state["ended_by"] == turn.seat
    assert state["match_winner"] == 1 - turn.seat
    archived = await database_sync_to_async(ArchivedMatch.objects.get)()
    assert (archived.status, archived.ending, archived.winner_seat) == ("finished", "time", 1 - turn.seat)
    assert await database_sync_to_async(clock_turn)(code) is None


def test_a_forfeit_seen_by_two_processes_at_once_ends_the_match_once():
    code, _ = paced_table()
    time_runs_out(code)
    turn = clock_turn(code)
    send_now(code, ClockForfeit(turn.seat, turn.version))
    with pytest.raises(GameError) as refused:
        send_now(code, ClockForfeit(turn.seat, turn.version))
    assert refused.value.code in ("stale", "match_not_running")
    assert ArchivedMatch.objects.filter(ending="time").count() == 1


def test_a_move_made_in_time_is_never_forfeited_by_a_clock_that_saw_the_old_deadline():
    code, _ = paced_table()
    owner = live_tables.owner(code)
    stale = owner.snapshot.version
    send_now(code, Play(owner.snapshot.to_move, "pass", stale))
    with pytest.raises(GameError) as refused:
        send_now(code, ClockForfeit(0, stale))
    assert refused.value.code == "stale" and not ArchivedMatch.objects.filter(ending="time").exists()


def test_the_stats_count_a_match_lost_out_of_time_as_a_win_and_a_loss():
    code, _ = paced_table()
    time_runs_out(code)
    turn = clock_turn(code)
    send_now(code, ClockForfeit(turn.seat, turn.version))
    results = dict(PlayerResult.objects.values_list("seat", "won"))
    assert results == {turn.seat: False, 1 - turn.seat: True}


def test_the_table_and_the_archive_say_in_plain_words_who_ran_out_of_time(client):
    code, _ = paced_table()
    time_runs_out(code)
    turn = clock_turn(code)
    send_now(code, ClockForfeit(turn.seat, turn.version))
    names = ("Ana", "Ben")
    live = live_context(live_tables.owner(code).snapshot.state_for(None), "melds")
    assert live["ending"] == f"{names[turn.seat]} ran out of time; the match goes to {names[1 - turn.seat]}."
    page = client.get(f"/en/archive/matches/{ArchivedMatch.objects.get().public_id}/").content.decode()
    assert f"{names[turn.seat]} ran out of time." in page


def test_the_rules_say_the_pace_and_that_running_out_of_time_loses_the_match():
    code, _ = paced_table(3)
    live = live_context(live_tables.owner(code).snapshot.state_for(0), "melds")
    assert "3 days a turn: whoever runs out of time loses the match" in live["rules"]


def test_a_turn_days_away_shows_its_time_in_words_and_the_last_day_counts_down(client):
    code, tokens = paced_table(1)
    live = live_context(live_tables.owner(code).snapshot.state_for(None), "melds")
    # A day a turn, then a day of bank, each in words (Django's, with no-break spaces), as a
    # chess clock shows the turn's own time and the bank apart.
    assert live["clock"]["left"].replace("\xa0", " ") in ("23 hours, 59 minutes", "1 day")
    assert live["clock"]["bank"].replace("\xa0", " ") == "1 day"
    Table.objects.filter(code=code).update(clock_deadline=timezone.now() + timedelta(hours=5, seconds=30))
    live_tables.clear()  # the owner built again, with the deadline as the database has it
    live = live_context(live_tables.owner(code).snapshot.state_for(None), "melds")
    # The turn's own day spent, the bank's last hours count down.
    assert live["clock"]["left"] == "0:00"
    hours, minutes, seconds = live["clock"]["bank"].split(":")
    assert hours == "5" and minutes == "00" and len(seconds) == 2
    client.cookies[f"seat_{code}"] = tokens[0]
    Table.objects.filter(code=code).update(clock_deadline=timezone.now() + timedelta(days=2, hours=3, minutes=1))
    live_tables.clear()
    assert "2 days, 3 hours" in client.get("/en/tables/").content.decode().replace("\xa0", " ")


def test_the_form_offers_the_paces_in_plain_words_and_opens_a_table_at_the_one_chosen(client):
    page = client.get("/en/").content.decode()
    assert 'name="pace" value="0" checked' in page and 'name="pace" value="3"' in page
    assert "a player whose time runs out loses the match" in page
    client.post("/en/tables/open/", {"name": "Ana", "scoring": "hollywood", "target": "100", "pace": "1"})
    assert Table.objects.get().pace == 1


def test_the_api_opens_a_table_at_a_pace_and_refuses_one_it_does_not_offer(client):
    opened = client.post("/api/tables", {"name": "Ana", "pace": 3}, content_type="application/json")
    assert opened.status_code == 201 and Table.objects.get(code=opened.json()["code"]).pace == 3
    refused = client.post("/api/tables", {"name": "Ana", "pace": 7}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_pace"


def test_the_task_worker_runs_a_pace_out_at_its_deadline_with_nobody_at_the_table():
    code, _ = paced_table()
    deadline = Table.objects.get().clock_deadline
    queued = DBTaskResult.objects.get(task_path="games.live.timer.run_out")
    assert queued.run_after == deadline and queued.args_kwargs["args"] == [code]
    call_command("db_worker", batch=True, startup_delay=False, reload=False)
    assert DBTaskResult.objects.get(pk=queued.pk).status == "READY"  # not due yet: it waits
    time_runs_out(code)
    DBTaskResult.objects.filter(pk=queued.pk).update(run_after=timezone.now() - timedelta(seconds=1))
    call_command("db_worker", batch=True, startup_delay=False, reload=False)
    assert DBTaskResult.objects.get(pk=queued.pk).return_value == "ClockForfeit"
    assert ArchivedMatch.objects.get().ending == "time" and not refreshed(code).states[None]["clock"]["deadline"]


def test_a_turn_played_in_time_leaves_the_old_deadlines_task_nothing_to_do():
    code, _ = paced_table()
    send_now(code, Play(live_tables.owner(code).snapshot.to_move, "pass", live_tables.owner(code).snapshot.version))
    first = DBTaskResult.objects.filter(task_path="games.live.timer.run_out").order_by("enqueued_at").first()
    DBTaskResult.objects.filter(pk=first.pk).update(run_after=timezone.now() - timedelta(seconds=1))
    call_command("db_worker", batch=True, startup_delay=False, reload=False)
    assert DBTaskResult.objects.get(pk=first.pk).return_value == "nothing due"
    assert not ArchivedMatch.objects.filter(ending="time").exists()
