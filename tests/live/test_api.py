"""The JSON API for programs: open and join tables."""

import json
import re

import pytest

from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def post(client, path, body):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data, content_type="application/json")


def open_table(client, **fields):
    body = {"name": "Ana", "scoring": "hollywood", "target": 100, "straight": False, "oklahoma": False}
    return post(client, "/api/tables", {**body, **fields})


def test_it_opens_a_table_and_gives_seat_zero_a_token(client):
    response = open_table(client)
    assert response.status_code == 201
    body = response.json()
    assert body["seat"] == 0 and len(body["token"]) >= 32
    assert body["url"].endswith(f"/t/{body['code']}/")
    table = Table.objects.get(code=body["code"])
    assert (table.scoring, table.target) == ("hollywood", 100)


def test_it_stores_only_a_hash_of_the_seat_token(client):
    body = open_table(client).json()
    seat = Seat.objects.get(table__code=body["code"])
    assert body["token"] not in seat.token_hash and len(seat.token_hash) == 64


def test_it_lets_the_second_player_join(client):
    code = open_table(client).json()["code"]
    response = post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    assert response.status_code == 200
    assert response.json()["seat"] == 1 and response.json()["token"]


def test_it_refuses_a_third_player_with_409(client):
    code = open_table(client).json()["code"]
    post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    response = post(client, f"/api/tables/{code}/join", {"name": "Cy"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "table_full"
    assert Seat.objects.filter(table__code=code).count() == 2


def test_it_answers_404_for_an_unknown_table(client):
    response = post(client, "/api/tables/nope/join", {"name": "Ben"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_table"


DEEPLY_NESTED = "[" * 2000 + "]" * 2000  # 4,000 bytes, deeper than the JSON parser goes


@pytest.mark.parametrize("body", ["not json", "[1]", b"\xff\xfe", DEEPLY_NESTED, '{"name": ' + DEEPLY_NESTED[:3000] + "}"])
def test_it_answers_400_for_a_malformed_body(client, body):
    response = post(client, "/api/tables", body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_request" and error["message"]
    assert not Table.objects.exists()


def test_it_answers_400_for_a_deeply_nested_body_when_joining(client):
    code = open_table(client).json()["code"]
    response = post(client, f"/api/tables/{code}/join", DEEPLY_NESTED)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    assert Seat.objects.filter(table__code=code).count() == 1


@pytest.mark.parametrize("fields, code", [
    ({"name": "x" * 500}, "name_too_long"),
    ({"name": "   "}, "name_missing"),
    ({"name": "Ana\x07"}, "name_not_printable"),
    ({"name": 7}, "name_missing"),
    ({"scoring": "poker"}, "bad_scoring"),
    ({"target": 99}, "bad_target"),
    ({"target": 250.0}, "bad_target"),
    ({"target": 100.0}, "bad_target"),
    ({"target": True}, "bad_target"),
    ({"straight": "yes"}, "bad_option"),
])
def test_it_refuses_bad_fields_with_400_and_opens_nothing(client, fields, code):
    response = open_table(client, **fields)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert not Table.objects.exists()


def test_it_refuses_a_long_name_when_joining_and_keeps_the_seat_free(client):
    code = open_table(client).json()["code"]
    response = post(client, f"/api/tables/{code}/join", {"name": "B" * 25})
    assert response.status_code == 400
    assert not Seat.objects.filter(table__code=code, number=1).exists()


def test_it_says_in_the_readers_language_that_a_name_needs_something_visible(client):
    response = client.post("/api/tables", '{"name": "\\u3164"}', content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400 and response.json()["error"] == {
        "code": "name_invisible", "message": "Ein Name braucht mindestens ein sichtbares Zeichen."}
    assert not Table.objects.exists()


def test_it_translates_error_messages_by_accept_language(client):
    response = client.post("/api/tables", "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "name_missing"


def test_it_refuses_get(client):
    assert client.get("/api/tables").status_code == 405


def card_codes_in(text):
    return re.findall(r"\b[A2-9TJQK][CDHS]\b", text)


def test_it_seats_a_player_and_returns_the_token_even_when_the_announcement_fails(client, redis_layer, caplog):
    code = open_table(client).json()["code"]
    redis_layer(listening_to=code)
    response = post(client, f"/api/tables/{code}/join", {"name": "Ben"})
    assert response.status_code == 200 and response.json()["token"]
    assert Seat.objects.get(table__code=code, number=1).name == "Ben"
    failures = [record for record in caplog.records if record.name == "games.live.hub"]
    assert failures and code in failures[0].getMessage()
    assert not card_codes_in(caplog.text)
