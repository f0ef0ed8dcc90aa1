"""Who is a player: the cookie, taking a seat, renaming, and the private link."""

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from games.archive.models import Player
from games.archive.players import COOKIE_NAME, create_player, identify_player, player_for, set_player_cookie
from games.identity import clean_name


def request_with(token=None):
    request = RequestFactory().get("/")
    if token:
        request.COOKIES[COOKIE_NAME] = token
    return request


def test_it_creates_a_player_and_sets_a_long_lived_private_cookie(db):
    player, token = player_for("  Ana ")
    cookie = set_player_cookie(HttpResponse(), token).cookies[COOKIE_NAME]
    assert player.name == "Ana"
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] >= 365 * 24 * 60 * 60
    # Only the hash is stored.
    assert cookie.value not in Player.objects.values_list("token_hash", flat=True)
    assert identify_player(request_with(cookie.value)) == player


def test_it_reuses_the_cookies_player_and_renames_it(db):
    player, token = create_player("Ana")
    again, new_token = player_for("Ana B.", token)
    assert again.pk == player.pk and new_token is None
    assert Player.objects.get(pk=player.pk).name == "Ana B."


def test_it_does_not_know_a_browser_without_the_cookie_or_with_a_wrong_one(db):
    create_player("Ana")
    assert identify_player(request_with()) is None
    assert identify_player(request_with("forged")) is None


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "tab\there"])
def test_it_refuses_bad_names(name):
    with pytest.raises(ValueError):
        clean_name(name)


@pytest.mark.parametrize(("name", "code"), [(None, "name_missing"), (7, "name_missing"), (" ", "name_missing"),
                                           ("x" * 25, "name_too_long"), ("tab\there", "name_not_printable")])
def test_it_says_why_a_name_is_refused(name, code):
    with pytest.raises(ValueError, match=f"^{code}$"):
        clean_name(name)


def test_it_accepts_24_printable_characters():
    assert clean_name("Ñandú " + "x" * 18) == "Ñandú " + "x" * 18


def test_it_shows_the_private_link_only_on_your_own_page(client, db):
    ana, token = create_player("Ana")
    ben, _ = create_player("Ben")
    client.cookies[COOKIE_NAME] = token
    own = client.get(f"/en/players/{ana.public_id}/")
    # The secret rides in the #fragment, which a browser never sends to a server.
    assert f"/en/players/claim/#player={token}" in own.content.decode()
    assert "no-store" in own["Cache-Control"] and "private" in own["Cache-Control"]
    assert "/players/claim/" not in client.get(f"/en/players/{ben.public_id}/").content.decode()


def test_it_never_puts_the_identity_secret_in_a_url_path(client, db):
    _ana, token = create_player("Ana")
    page = client.get("/en/players/claim/")
    assert page.status_code == 200 and COOKIE_NAME not in page.cookies
    assert token not in page.content.decode()
    assert "no-store" in page["Cache-Control"] and "csrftoken" in page.cookies
    assert client.get(f"/en/players/claim/{token}/").status_code == 404


def test_it_claims_an_identity_from_the_secret_posted_by_the_page(client, db):
    ana, token = create_player("Ana")
    claimed = client.post("/en/players/claim/", {"token": token})
    assert claimed.status_code == 302 and claimed["Location"] == f"/en/players/{ana.public_id}/"
    assert claimed.cookies[COOKIE_NAME].value == token
    assert "no-store" in claimed["Cache-Control"]


def test_it_needs_a_csrf_token_to_claim_an_identity(db):
    _ana, token = create_player("Ana")
    response = Client(enforce_csrf_checks=True).post("/en/players/claim/", {"token": token})
    assert response.status_code == 403


@pytest.mark.parametrize("token", ["not-a-secret", ""])
def test_it_refuses_an_unknown_private_link(client, db, token):
    response = client.post("/en/players/claim/", {"token": token})
    assert response.status_code == 404 and COOKIE_NAME not in response.cookies


def test_it_draws_one_match_as_one_slim_bar_not_a_full_width_block():
    from games.archive.display import CHART_WIDTH, chart_bars
    bars = chart_bars([{"total": 10, "opponent_total": 120, "won": False}])
    assert bars[0]["width"] <= CHART_WIDTH / 10
