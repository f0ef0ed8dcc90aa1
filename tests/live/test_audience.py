"""The number of spectators watching a table, counted across processes like the players'
presence, and shown to everyone at the table."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from games.live.render import render_live
from games.live.tables import live_tables
from games.models import Audience
from tests.live.helpers import api_socket, browser_socket, close, state_where

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def seated_table():
    seated = open_table("Ana", deal_seed="audience")
    send_now(seated.table.code, Sit("Ben")).answer
    return seated.table.code, seated.token


async def test_the_players_see_how_many_are_watching_as_spectators_come_and_go():
    code, token = await seated_table()
    player = await api_socket(code, token)
    await state_where(player, lambda state: state["spectators"] == 0)
    watchers = [await browser_socket(code), await browser_socket(code)]
    await state_where(player, lambda state: state["spectators"] == 2)
    await close(watchers[0])
    state = await state_where(player, lambda state: state["spectators"] == 1)
    assert '1 person watching' in await database_sync_to_async(render_live)(state)
    await close(watchers[1], player)


def test_a_spectator_of_a_server_that_stopped_beating_counts_no_more(settings):
    seated = open_table("Ana")
    table = seated.table
    Audience.objects.create(table=table, process="gone", connections=3,
                            beat=timezone.now() - timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT_SECONDS + 1))
    Audience.objects.create(table=table, process="alive", connections=2, beat=timezone.now())
    assert live_tables.owner(table.code).snapshot.state_for(0)["spectators"] == 2


async def test_it_counts_a_spectators_tabs_as_one_person_watching():
    code, token = await seated_table()
    player = await api_socket(code, token)
    await state_where(player, lambda state: state["spectators"] == 0)
    carla = []
    for _tab in range(2):
        carla.append(await browser_socket(code, viewer="carla"))
        await state_where(carla[-1], lambda state: True)  # its arrival is counted (or not) by now
    dan = await browser_socket(code, viewer="dan")
    await state_where(dan, lambda state: True)  # his arrival is counted by now
    watching = await database_sync_to_async(lambda: live_tables.owner(code).snapshot.state_for(0)["spectators"])()
    assert watching == 2, "Carla's two tabs and Dan are two people watching"
    await close(carla[0], dan)
    await state_where(player, lambda state: state["spectators"] == 1)  # Carla's other tab still watches
    await close(carla[1])
    await state_where(player, lambda state: state["spectators"] == 0)
    await close(player)
