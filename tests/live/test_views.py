"""The table page, opening and joining by form, the seat cookie and the claim link."""

import re

import pytest
from django.test import Client

from games.models import Seat, Table

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table

pytestmark = pytest.mark.django_db


def open_by_form(client, name="Ana", **fields):
    return client.post("/en/tables/open/", {"name": name, "scoring": "hollywood", "target": "100", **fields})


def test_it_opens_a_table_from_the_form_and_sets_an_httponly_seat_cookie(client):
    response = open_by_form(client, oklahoma="on")
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/t/{table.code}/"
    cookie = response.cookies[f"seat_{table.code}"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert table.oklahoma and not table.straight


@pytest.mark.parametrize("name", ["", "x" * 500, "Ana\x00"])
def test_it_shows_a_clear_error_for_a_bad_name_and_opens_nothing(client, name):
    response = open_by_form(client, name=name)
    assert response.status_code == 400
    assert b"form-error" in response.content
    assert not Table.objects.exists()


def test_it_needs_a_csrf_token_to_open_a_table():
    response = open_by_form(Client(enforce_csrf_checks=True))
    assert response.status_code == 403


def test_it_needs_a_csrf_token_to_join():
    table, *_ = open_table("Ana")
    response = Client(enforce_csrf_checks=True).post(f"/en/t/{table.code}/join/", {"name": "Ben"})
    assert response.status_code == 403


def test_it_shows_the_creator_their_hand_and_the_share_link(client):
    open_by_form(client)
    table = Table.objects.get()
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert 'class="my-hand"' in page
    assert f"/t/{table.code}/" in page and f'value="http://testserver/t/{table.code}/"' in page
    assert "Continue on another device" in page


def test_it_offers_the_free_seat_to_a_visitor_and_no_hand(client):
    table, *_ = open_table("Ana")
    page = Client().get(f"/en/t/{table.code}/").content.decode()
    assert 'class="join"' in page and 'class="my-hand"' not in page
    assert "Continue on another device" not in page


def test_it_seats_the_second_visitor_by_the_link(client):
    table, *_ = open_table("Ana")
    response = client.post(f"/en/t/{table.code}/join/", {"name": "Ben"})
    assert response.status_code == 302
    assert Seat.objects.get(table=table, number=1).name == "Ben"
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert 'class="my-hand"' in page and 'class="join"' not in page


def test_it_lets_a_third_visitor_only_watch(client):
    table, *_ = open_table("Ana")
    send_now(table.code, Sit("Ben")).answer
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert 'class="join"' not in page and 'class="my-hand"' not in page
    response = client.post(f"/en/t/{table.code}/join/", {"name": "Cy"})
    assert response.status_code == 409 and b"Both seats" in response.content


def test_it_escapes_names_everywhere(client):
    table, *_ = open_table("<b>Ana</b>")
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert "<b>Ana</b>" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page


def test_it_moves_a_seat_to_another_device_by_the_claim_link(client):
    table, _, token, *_ = open_table("Ana")
    response = Client().post(f"/en/t/{table.code}/claim/", {"token": token})
    assert response.status_code == 302 and response.cookies[f"seat_{table.code}"].value == token


def test_it_sets_no_cookie_for_a_wrong_claim(client):
    table, *_ = open_table("Ana")
    response = client.post(f"/en/t/{table.code}/claim/", {"token": "wrong"})
    assert response.status_code == 302 and f"seat_{table.code}" not in response.cookies


def test_it_keeps_the_seat_secret_out_of_every_path(client):
    open_by_form(client)
    table = Table.objects.get()
    token = client.cookies[f"seat_{table.code}"].value
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert f"/t/{table.code}/#seat={token}" in page and f"/{token}" not in page


def test_it_forbids_any_cache_to_store_a_page_that_shows_the_seat_secret(client):
    open_by_form(client)
    table = Table.objects.get()
    response = client.get(f"/en/t/{table.code}/")
    assert "#seat=" in response.content.decode()
    cache_control = response["Cache-Control"]
    assert "no-store" in cache_control and "private" in cache_control


def test_it_reads_the_table_and_its_seats_once_for_the_page(client, django_assert_num_queries):
    open_by_form(client)
    table = Table.objects.get()
    client.get(f"/en/t/{table.code}/")  # the session and the player are set up
    # The table, its seats, its chat: nothing twice.
    with django_assert_num_queries(3):
        assert client.get(f"/en/t/{table.code}/").status_code == 200


def test_it_needs_a_csrf_token_to_claim_a_seat():
    table, _, token, *_ = open_table("Ana")
    response = Client(enforce_csrf_checks=True).post(f"/en/t/{table.code}/claim/", {"token": token})
    assert response.status_code == 403


def test_it_answers_404_for_an_unknown_table(client):
    assert client.get("/en/t/nope/").status_code == 404


def test_it_sends_a_shared_link_without_language_to_the_visitors_language(client):
    table, *_ = open_table("Ana")
    response = client.get(f"/t/{table.code}/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302 and response["Location"] == f"/de/t/{table.code}/"


def test_it_puts_the_open_table_form_on_the_home_page(client):
    page = client.get("/en/").content.decode()
    assert re.search(r'<form class="open-table" method="post" action="/en/tables/open/"', page)


def test_it_gives_the_browser_a_player_identity_when_it_takes_a_seat(client):
    open_by_form(client)
    seat = Seat.objects.get()
    assert "player" in client.cookies and seat.player.name == "Ana"


def test_it_never_gives_one_browser_both_seats(client):
    open_by_form(client)
    table = Table.objects.get()
    response = client.post(f"/en/t/{table.code}/join/", {"name": "Ana again"})
    assert response.status_code == 302
    assert Seat.objects.filter(table=table).count() == 1


def test_it_seats_a_visitor_with_a_cookie_even_when_the_announcement_fails(client, redis_layer, caplog):
    table, *_ = open_table("Ana")
    redis_layer(listening_to=table.code)
    response = client.post(f"/en/t/{table.code}/join/", {"name": "Ben"})
    assert response.status_code == 302 and response.cookies[f"seat_{table.code}"].value
    assert Seat.objects.get(table=table, number=1).name == "Ben"
    assert [record for record in caplog.records if record.name == "games.live.hub"]


def test_it_refuses_a_join_by_the_player_who_holds_the_other_seat(client):
    open_by_form(client)
    table = Table.objects.get()
    # A second browser carrying the same player identity (its private link), but no seat.
    other = Client()
    other.cookies["player"] = client.cookies["player"].value
    response = other.post(f"/en/t/{table.code}/join/", {"name": "Ana"})
    assert response.status_code == 400
    assert "You already hold the other seat at this table." in response.content.decode()
    assert list(Seat.objects.filter(table=table).values_list("number", flat=True)) == [0]


def test_it_ends_the_other_devices_access_to_a_seat_and_keeps_this_ones(client):
    table, _, token, *_ = open_table("Ana")
    other_device = Client()
    other_device.post(f"/en/t/{table.code}/claim/", {"token": token})
    client.post(f"/en/t/{table.code}/claim/", {"token": token})
    response = client.post(f"/en/t/{table.code}/revoke/")
    renewed = response.cookies[f"seat_{table.code}"]
    assert response.status_code == 302 and renewed.value != token and renewed["httponly"]
    assert 'class="my-hand"' in client.get(f"/en/t/{table.code}/").content.decode()
    assert 'class="my-hand"' not in other_device.get(f"/en/t/{table.code}/").content.decode()
    # The old private link claims nothing any more.
    assert f"seat_{table.code}" not in Client().post(f"/en/t/{table.code}/claim/", {"token": token}).cookies


def test_it_offers_to_end_the_other_devices_access_on_the_seated_page_only(client):
    open_by_form(client)
    table = Table.objects.get()
    assert f'action="/en/t/{table.code}/revoke/"' in client.get(f"/en/t/{table.code}/").content.decode()
    assert "/revoke/" not in Client().get(f"/en/t/{table.code}/").content.decode()


def test_it_changes_nothing_when_a_spectator_asks_to_end_other_devices_access():
    table, _, token, *_ = open_table("Ana")
    hash_before = Seat.objects.get().token_hash
    response = Client().post(f"/en/t/{table.code}/revoke/")
    assert response.status_code == 302 and f"seat_{table.code}" not in response.cookies
    assert Seat.objects.get().token_hash == hash_before


def test_it_needs_a_csrf_token_to_end_the_other_devices_access():
    table, _, token, *_ = open_table("Ana")
    browser = Client(enforce_csrf_checks=True)
    browser.cookies[f"seat_{table.code}"] = token
    assert browser.post(f"/en/t/{table.code}/revoke/").status_code == 403
