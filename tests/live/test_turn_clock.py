"""The turn clock: chosen when the table opens, its deadline stored on the table's row, and the
club level's move played for a seat whose time ran out, said so in the hand's log."""

import asyncio
import math
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.archive.models import ArchivedHand
from games.computer import choose_move
from games.errors import GameError
from games.live import clock, hub
from games.live.batch import send_now
from games.live.commands import ClockNextHand, ClockPlay, Play, PressNextHand, PressRematch, Sit
from games.live.opening import open_table
from games.live.render import live_context
from games.live.tables import clock_turn, live_tables, refreshed
from games.models import Move, Table
from tests.live.helpers import api_socket, close, state_where, time_runs_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def a_computer_in_this_process(settings):
    settings.GAMES_COMPUTER_PROCESSES = 0  # the real club level, thinking in a thread
    settings.GAMES_CLOCK_BANK_SECONDS = 20


def clocked_table(clock_seconds=30, scoring="hollywood"):
    seated = open_table("Ana", deal_seed="clock", clock=clock_seconds, scoring=scoring)
    ben = send_now(seated.table.code, Sit("Ben")).answer
    return seated.table.code, {0: seated.token, 1: ben.token}


def test_a_table_has_no_clock_unless_one_is_chosen():
    seated = open_table("Ana")
    send_now(seated.table.code, Sit("Ben")).answer
    table = Table.objects.get()
    assert table.clock == 0 and table.clock_deadline is None
    assert live_tables.owner(table.code).snapshot.state_for(0)["clock"] is None


@pytest.mark.parametrize("chosen", [45, "30", True, -30])
def test_it_refuses_a_clock_it_does_not_offer(chosen):
    with pytest.raises(GameError) as refused:
        open_table("Ana", clock=chosen)
    assert refused.value.code == "bad_clock"
    assert not Table.objects.exists()


def test_the_deadline_is_stored_when_the_match_starts_and_a_restart_keeps_it():
    before = timezone.now()
    code, _ = clocked_table(30)
    table = Table.objects.get()
    # The seat's turn plus its bank, from the moment the second player sat down.
    assert before + timedelta(seconds=50) <= table.clock_deadline <= timezone.now() + timedelta(seconds=50)
    live_tables.clear()
    state = live_tables.owner(code).snapshot.state_for(None)
    assert state["clock"] == {"seconds": 30, "pace": 0, "banks": [20.0, 20.0], "deadline": table.clock_deadline.isoformat(),
                              "seat": state["to_move"], "played": []}


def test_a_turn_played_in_time_keeps_the_bank_and_starts_the_other_seats_clock():
    code, _ = clocked_table(30)
    owner = live_tables.owner(code)
    mover = owner.snapshot.to_move
    send_now(code, Play(mover, "pass", owner.snapshot.version))
    table = Table.objects.get()
    assert table.clock_banks == [20.0, 20.0]
    assert table.clock_deadline > timezone.now() + timedelta(seconds=45)
    assert owner.snapshot.state_for(None)["clock"]["seat"] == 1 - mover


def test_a_turn_that_ran_over_its_seconds_leaves_what_was_left_of_the_bank():
    code, _ = clocked_table(30)
    mover = live_tables.owner(code).snapshot.to_move
    # Twelve seconds left: the turn's thirty are spent, and eight of the bank's twenty.
    Table.objects.filter(code=code).update(clock_deadline=timezone.now() + timedelta(seconds=12))
    live_tables.clear()
    send_now(code, Play(mover, "pass", Table.objects.get().version))
    banks = Table.objects.get().clock_banks
    assert 11.5 <= banks[mover] <= 12 and banks[1 - mover] == 20.0


async def test_it_plays_the_club_move_for_a_player_whose_time_ran_out():
    code, _ = await database_sync_to_async(clocked_table)()
    await database_sync_to_async(time_runs_out)(code)
    turn = await database_sync_to_async(clock_turn)(code)
    assert isinstance(turn.command, ClockPlay) and turn.level == "club"
    await asyncio.wait_for(clock.run_out(code), timeout=10)
    moves = await database_sync_to_async(lambda: list(Move.objects.values_list("seat", "text", "by_clock")))()
    assert moves == [(turn.seat, moves[0][1], True)]
    # The other seat's turn now, on a fresh clock: nothing more is due.
    assert await database_sync_to_async(clock_turn)(code) is None
    state = (await database_sync_to_async(refreshed)(code)).state_for(None)
    assert state["clock"]["played"] == [0] and state["clock"]["banks"][turn.seat] == 0
    names = {0: "Ana", 1: "Ben"}
    line = live_context(state, "melds")["moves"][0]
    assert line.startswith(f"{names[turn.seat]} ran out of time: the computer ")


async def test_it_plays_the_draw_and_then_the_discard_of_a_turn_that_ran_out():
    code, _ = await database_sync_to_async(clocked_table)()
    owner = await database_sync_to_async(live_tables.owner)(code)
    # Past the upcard's offer: the first seat passes, the second draws from the stock…
    first = owner.snapshot.to_move
    await database_sync_to_async(send_now)(code, Play(first, "pass", owner.snapshot.version))
    await database_sync_to_async(send_now)(code, Play(1 - first, "pass", owner.snapshot.version))
    await database_sync_to_async(time_runs_out)(code)
    await asyncio.wait_for(clock.run_out(code), timeout=10)
    played = await database_sync_to_async(lambda: list(Move.objects.filter(by_clock=True).values_list("seat", "text")))()
    assert [seat for seat, _ in played] == [first, first]
    assert played[0][1] in ("stock", "pile") and played[1][1].split()[0] in ("discard", "knock")


async def test_a_move_made_in_time_is_never_played_again_by_a_clock_that_saw_the_old_deadline():
    code, _ = await database_sync_to_async(clocked_table)()
    await database_sync_to_async(time_runs_out)(code)
    turn = await database_sync_to_async(clock_turn)(code)
    # Another process played the clock's move (or the player moved) meanwhile.
    await database_sync_to_async(send_now)(code, Play(turn.seat, "pass", turn.version))
    with pytest.raises(GameError) as refused:
        await database_sync_to_async(send_now)(code, ClockPlay(turn.seat, "pass", turn.version))
    assert refused.value.code == "stale"
    assert await database_sync_to_async(Move.objects.filter(by_clock=True).exists)() is False


async def test_a_deadline_pushed_back_in_the_database_stops_a_clock_that_read_it_past():
    code, _ = await database_sync_to_async(clocked_table)()
    await database_sync_to_async(time_runs_out)(code)
    turn = await database_sync_to_async(clock_turn)(code)
    await database_sync_to_async(Table.objects.filter(code=code).update)(
        clock_deadline=timezone.now() + timedelta(seconds=30))
    with pytest.raises(GameError):
        await database_sync_to_async(send_now)(code, ClockPlay(turn.seat, "pass", turn.version))
    assert await database_sync_to_async(Move.objects.exists)() is False


async def test_the_hubs_check_runs_the_clock_out_and_both_players_see_the_move():
    code, tokens = await database_sync_to_async(clocked_table)()
    sockets = [await api_socket(code, tokens[seat]) for seat in (0, 1)]
    first = [await state_where(socket, lambda state: True) for socket in sockets]
    await database_sync_to_async(time_runs_out)(code)
    await database_sync_to_async(live_tables.owner)(code)  # the process's owner, built again
    await hub.hub().catch_up()
    for socket in sockets:
        state = await state_where(socket, lambda state: state["version"] > first[0]["version"])
        assert state["clock"]["played"] == [0]
        assert state["clock"]["deadline"] > timezone.now().isoformat()
    for socket in sockets:
        await close(socket)


def play_to_the_showdown(code):
    """Both seats play the beginner's moves until the hand ends."""
    owner = live_tables.owner(code)
    while owner.match.hand.result is None:
        seat = owner.snapshot.to_move
        send_now(code, Play(seat, choose_move(owner.match.view(seat), "beginner", random.Random(1)), owner.snapshot.version))
    return owner


async def test_a_showdown_whose_time_ran_out_goes_on_to_the_next_hand():
    code, _ = await database_sync_to_async(clocked_table)()

    @database_sync_to_async
    def pressed_by_one():
        owner = play_to_the_showdown(code)
        send_now(code, PressNextHand(0))
        return len(owner.match.hands)

    hands = await pressed_by_one()
    await database_sync_to_async(time_runs_out)(code)
    turn = await database_sync_to_async(clock_turn)(code)
    assert isinstance(turn.command, ClockNextHand)
    await asyncio.wait_for(clock.run_out(code), timeout=10)
    owner = await database_sync_to_async(live_tables.owner)(code)
    assert len(owner.match.hands) == hands + 1 and owner.match.hand.result is None


def test_the_api_opens_a_table_with_a_clock_and_refuses_one_it_does_not_offer(client):
    opened = client.post("/api/tables", {"name": "Ana", "clock": 60}, content_type="application/json")
    assert opened.status_code == 201 and Table.objects.get(code=opened.json()["code"]).clock == 60
    refused = client.post("/api/tables", {"name": "Ana", "clock": 5}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_clock"


def test_the_form_offers_the_clocks_and_opens_a_table_with_the_one_chosen(client):
    page = client.get("/en/").content.decode()
    assert 'name="clock" value="0" checked' in page and 'name="clock" value="30"' in page
    client.post("/en/tables/open/", {"name": "Ana", "scoring": "hollywood", "target": "100", "clock": "30"})
    assert Table.objects.get().clock == 30


def test_both_players_and_a_spectator_see_whose_time_is_running_and_the_rules_name_the_clock(client):
    code, tokens = clocked_table(30)
    owner = live_tables.owner(code)
    mover = owner.snapshot.to_move
    names = ("Ana", "Ben")
    for seat in (0, 1, None):
        live = live_context(owner.snapshot.state_for(seat), "melds")
        assert live["clock"]["deadline"] == Table.objects.get().clock_deadline.isoformat()
        assert live["clock"]["mine"] == (seat == mover) and live["clock"]["name"] == names[mover]
        assert "Turn clock: 30 seconds a turn" in live["rules"]
    client.cookies[f"seat_{code}"] = tokens[mover]
    deadline = Table.objects.get().clock_deadline
    most_left = math.ceil((deadline - timezone.now()).total_seconds())
    page = client.get(f"/en/t/{code}/").content.decode()
    least_left = math.ceil((deadline - timezone.now()).total_seconds())
    # The turn's 30 seconds, then the 20 of the bank apart, as a chess clock shows them, counted
    # down from the page's render: any figure between what was left before the request and
    # after it (a loaded machine is slow).
    shown = [f"Your time: <span data-countdown>0:{left - 20:02d}</span> + <span data-bank>0:20</span> bank"
             for left in range(least_left, most_left + 1)]
    assert 40 < most_left <= 50 and 'id="turn-clock" data-countdown-to="' in page and any(s in page for s in shown)


def test_it_shows_the_bank_running_once_the_turns_own_seconds_are_spent():
    code, _ = clocked_table(30)
    mover = live_tables.owner(code).snapshot.to_move
    # Twelve seconds left: the turn's thirty are spent, and eight of the bank's twenty.
    Table.objects.filter(code=code).update(clock_deadline=timezone.now() + timedelta(seconds=12))
    live_tables.clear()
    shown = live_context(live_tables.owner(code).snapshot.state_for(mover), "melds")["clock"]
    assert shown["left"] == "0:00" and shown["bank"] in ("0:11", "0:12")


async def test_the_archive_keeps_which_moves_the_clock_played_and_its_replay_says_so(client):
    code, _ = await database_sync_to_async(clocked_table)(scoring="hand")
    await database_sync_to_async(time_runs_out)(code)
    await asyncio.wait_for(clock.run_out(code), timeout=10)
    owner = await database_sync_to_async(play_to_the_showdown)(code)  # a single hand: the match is over
    assert owner.outcome is not None
    hand = await database_sync_to_async(ArchivedHand.objects.get)()
    assert hand.by_clock == [0]
    match_id = owner.table.match_id
    page = (await database_sync_to_async(client.get)(f"/en/archive/matches/{match_id}/?hand=1&step=1")).content.decode()
    assert "(the time ran out: the computer played this move)" in page
    later = (await database_sync_to_async(client.get)(f"/en/archive/matches/{match_id}/?hand=1&step=2")).content.decode()
    assert 'id="replay-by-clock"' not in later


@pytest.mark.parametrize("seed", ["clock-a", "clock-b", "clock-c", "clock-d"])
def test_against_the_computer_only_the_persons_turns_are_timed(seed):
    seated = open_table("Ana", deal_seed=seed, clock=60, computer="club")
    owner = live_tables.owner(seated.table.code)
    clock_shown = owner.snapshot.state_for(0)["clock"]
    person_to_move = owner.snapshot.to_move == 0
    assert (Table.objects.get().clock_deadline is not None) == person_to_move
    assert clock_shown["seat"] == (0 if person_to_move else None)


def test_a_rematch_gives_both_seats_a_full_bank_again():
    code, _ = clocked_table(30, scoring="hand")
    Table.objects.filter(code=code).update(clock_banks=[3.0, 7.5])
    live_tables.clear()
    play_to_the_showdown(code)  # a single hand: the match is over
    for seat in (0, 1):
        send_now(code, PressRematch(seat))
    assert Table.objects.get().clock_banks == [20.0, 20.0]
