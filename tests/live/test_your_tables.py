"""The "Your tables" page and the header's badge: every table this browser holds a seat at,
from its seat cookies, whose turn it is, the time left, newest activity first."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from games.live.seats import cookie_name
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def seated_at(client, seated, *more):
    for table_code, token in ((seated.table.code, seated.token), *more):
        client.cookies[cookie_name(table_code)] = token


def a_match(pace=0):
    ana = open_table("Ana", deal_seed="yours", pace=pace)
    ben = send_now(ana.table.code, Sit("Ben")).answer
    return ana, ben


def test_it_lists_each_table_this_browser_sits_at_with_whose_turn_and_the_newest_first(client):
    older, _ = a_match()
    newer, newer_ben = a_match(pace=2)
    Table.objects.filter(code=older.table.code).update(updated=timezone.now() - timedelta(days=1))
    seated_at(client, older, (newer.table.code, newer.token))
    page = client.get("/en/tables/").content.decode()
    assert page.index(f"/en/t/{newer.table.code}/") < page.index(f"/en/t/{older.table.code}/")
    mover = live_tables.owner(newer.table.code).snapshot.to_move
    first_entry = page[page.index(f"/en/t/{newer.table.code}/"):page.index(f"/en/t/{older.table.code}/")]
    assert ("Your turn" in first_entry) == (mover == 0) and ("Ben’s turn" in first_entry) == (mover == 1)
    assert "Against Ben" in first_entry and 'data-countdown-to="' in first_entry


def test_it_shows_no_table_of_a_cookie_that_is_not_the_seats_secret(client):
    ana, _ = a_match()
    client.cookies[cookie_name(ana.table.code)] = "not-the-secret"
    page = client.get("/en/tables/").content.decode()
    assert f"/t/{ana.table.code}/" not in page and "This browser holds no seat at any table yet." in page


def test_the_badge_counts_the_tables_waiting_for_this_browser(client):
    tokens = []
    for waits in (True, False, True):
        ana, ben = a_match()
        mover = live_tables.owner(ana.table.code).snapshot.to_move
        tokens.append((ana.table.code, (ana, ben)[mover if waits else 1 - mover].token))
    for code, token in tokens:
        client.cookies[cookie_name(code)] = token
    assert 'class="your-tables"' in client.get("/en/").content.decode()
    badge = client.get("/en/tables/waiting/").content.decode()
    assert '<span aria-hidden="true">2</span>' in badge and "(2 wait for you)" in badge


def test_a_browser_without_seats_has_no_link_and_asks_nothing_of_the_database(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(0):
        page = client.get("/en/history/").content.decode()
    assert 'class="your-tables"' not in page


def test_a_table_waiting_for_an_opponent_says_to_share_its_link(client):
    alone = open_table("Ana")
    seated_at(client, alone)
    page = client.get("/en/tables/").content.decode()
    assert "Waiting for an opponent" in page and "Share the link to invite a friend." in page


def test_the_badge_is_empty_when_no_table_waits_for_this_browser(client):
    ana, ben = a_match()
    mover = live_tables.owner(ana.table.code).snapshot.to_move
    client.cookies[cookie_name(ana.table.code)] = (ana, ben)[1 - mover].token
    assert "waiting-badge" not in client.get("/en/tables/waiting/").content.decode()
