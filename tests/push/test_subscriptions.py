"""A seat's subscription, posted from its table page: kept for the seat this browser's cookie
holds, in the page's language; refused to a spectator and for anything but a push service's
https address. The page offers the button to its seated players only, and asks nothing on load."""

import json

import pytest
from django.core.management import call_command

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from games.live.seats import cookie_name
from games.push.models import Subscription

pytestmark = pytest.mark.django_db(transaction=True)

BROWSER_SUBSCRIPTION = {"endpoint": "https://push.example/send/abc", "expirationTime": None,
                        "keys": {"p256dh": "BPublicKeyOfTheBrowser", "auth": "AuthSecret"}}


@pytest.fixture
def ana(client):
    seated = open_table("Ana")
    send_now(seated.table.code, Sit("Ben"))
    client.cookies[cookie_name(seated.table.code)] = seated.token
    return seated.table.code


def post(client, path, body):
    return client.post(path, json.dumps(body), content_type="application/json")


def test_it_keeps_a_subscription_for_the_seat_of_this_browser_in_the_pages_language(client, ana):
    answer = post(client, f"/de/t/{ana}/push/", BROWSER_SUBSCRIPTION)
    assert answer.status_code == 204
    kept = Subscription.objects.get()
    assert (kept.seat.number, kept.endpoint, kept.auth, kept.language) == (0, BROWSER_SUBSCRIPTION["endpoint"],
                                                                            "AuthSecret", "de")


def test_posting_the_same_subscription_again_keeps_one(client, ana):
    post(client, f"/en/t/{ana}/push/", BROWSER_SUBSCRIPTION)
    post(client, f"/es/t/{ana}/push/", BROWSER_SUBSCRIPTION)
    assert list(Subscription.objects.values_list("language", flat=True)) == ["es"]


def test_it_refuses_a_spectator(client):
    code = open_table("Ana").table.code
    assert post(client, f"/en/t/{code}/push/", BROWSER_SUBSCRIPTION).status_code == 400
    assert not Subscription.objects.exists()


@pytest.mark.parametrize("endpoint", ["http://push.example/send", "file:///etc/passwd", 42])
def test_it_refuses_an_address_that_is_not_a_push_services_https_one(client, ana, endpoint):
    answer = post(client, f"/en/t/{ana}/push/", BROWSER_SUBSCRIPTION | {"endpoint": endpoint})
    assert answer.status_code == 400 and not Subscription.objects.exists()


def test_a_player_can_turn_the_notices_off_again(client, ana):
    post(client, f"/en/t/{ana}/push/", BROWSER_SUBSCRIPTION)
    assert post(client, f"/en/t/{ana}/push/stop/", BROWSER_SUBSCRIPTION).status_code == 204
    assert not Subscription.objects.exists()


def test_the_page_offers_the_button_to_a_seated_player_hidden_until_its_script_shows_it(client, ana):
    page = client.get(f"/en/t/{ana}/").content.decode()
    assert '<button type="button" id="notify-me" hidden' in page and "Notify me when it is my turn" in page
    assert 'data-worker="/static/js/push-sw.js"' in page


def test_a_spectator_is_not_offered_the_button(client):
    code = open_table("Ana").table.code
    assert 'id="notify-me"' not in client.get(f"/en/t/{code}/").content.decode()


def test_without_a_vapid_key_nobody_is_offered_the_button(client, ana, settings):
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    assert 'id="notify-me"' not in client.get(f"/en/t/{ana}/").content.decode()


def test_the_key_command_writes_a_key_once_and_keeps_it(settings, tmp_path):
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = tmp_path / ".vapid_private_key"
    call_command("vapid_key")
    written = settings.VAPID_KEY_FILE.read_text().strip()
    settings.PUSH_VAPID_PRIVATE_KEY = written
    call_command("vapid_key")
    assert settings.VAPID_KEY_FILE.read_text().strip() == written and len(written) == 43
