"""The archive for programs: a match as JSON, its sheet as CSV, a player's numbers."""

import csv
import io
import json
import random

import pytest

from games.archive.simulate import play_match

from games.live.batch import send_now
from games.live.commands import Resign, Sit
from games.live.opening import open_table
from tests.archive.helpers import hand, make_player, record, record_engine_match


def test_it_returns_a_whole_match_as_json(client, fixed_matches, ana, cyd):
    hollywood = fixed_matches[2]
    data = client.get(f"/api/matches/{hollywood.public_id}").json()
    assert data["id"] == hollywood.public_id
    assert data["players"] == [
        {"name": "Ana", "player_id": ana.public_id},
        {"name": "Cyd", "player_id": cyd.public_id},
    ]
    assert (data["scoring"], data["target"], data["winner"]) == ("hollywood", 100, 0)
    assert data["options"] == {"straight": False, "oklahoma": False}
    results = [hand["result"] for hand in data["hands"]]
    assert [(h["dealer"], r["winner"], r["kind"], r["points"]) for h, r in zip(data["hands"], results)] == [
        (0, 0, "knock", 100), (0, 0, "gin", 110), (0, 1, "undercut", 100), (1, 0, "knock", 100),
    ]
    assert {"result", "moves", "sheet"} <= set(data["hands"][0])
    sheet = data["sheet"]
    assert set(sheet) >= {"games", "totals", "winner", "is_over"}
    assert set(sheet["games"][0]) >= {"points", "hands_won", "winner", "bonus"}
    assert sheet["totals"] == [985, 0] and sheet["is_over"] is True


def test_it_returns_the_sheet_and_the_showdowns_in_the_protocols_shape(client, ana, ben):
    match = play_match("hollywood", 100, rng=random.Random(11))
    archived = record_engine_match((ana, ben), match)
    data = client.get(f"/api/matches/{archived.public_id}").json()
    assert data["sheet"] == match.sheet.to_dict()
    assert all(game["entries"] for game in data["sheet"]["games"])
    assert data["hands"][-1]["sheet"] == data["sheet"]
    assert [hand["result"] for hand in data["hands"]] == [result.to_dict() for result in match.results]


def test_it_returns_a_single_hands_sheet_of_one_row(client, fixed_matches):
    data = client.get(f"/api/matches/{fixed_matches[0].public_id}").json()
    assert data["sheet"]["games"] == [] and data["winner"] == 0
    assert data["sheet"]["hands"] == [{"hand": 1, "winner": 0, "points": 31, "games": []}]


def test_it_downloads_the_sheet_hand_by_hand_as_csv(client, fixed_matches):
    one_game = fixed_matches[1]
    response = client.get(f"/api/matches/{one_game.public_id}/sheet.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith("\ufeff".encode())  # spreadsheets then read UTF-8
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["hand", "dealer", "winner", "kind", "points", "game 1 Ana", "game 1 Ben", "total Ana", "total Ben"]
    assert rows[1] == ["1", "Ana", "Ana", "gin", "40", "40", "", "", ""]
    assert rows[3] == ["3", "Ben", "", "draw", "0", "", "", "", ""]
    assert rows[-2] == ["bonus", "", "", "", "", "175", "25", "", ""]
    assert rows[-1] == ["total", "", "", "", "", "105", "20", "280", "45"]


@pytest.mark.parametrize("name", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_it_never_writes_a_name_a_spreadsheet_would_run_as_a_formula(client, ben, name):
    evil = make_player(name)
    archived = record("formula", (evil, ben), "game", [hand(0, "gin", 100)])
    response = client.get(f"/api/matches/{archived.public_id}/sheet.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert rows[1][1:3] == [f"'{name}", f"'{name}"]
    assert rows[0][5:9] == [f"game 1 {name}", "game 1 Ben", f"total {name}", "total Ben"]


def test_it_returns_a_players_numbers(client, fixed_matches, ana):
    data = client.get(f"/api/players/{ana.public_id}").json()
    assert data["player_id"] == ana.public_id and data["name"] == "Ana"
    assert (data["matches_played"], data["matches_won"], data["hands_won"]) == (3, 2, 6)
    assert (data["gins"], data["knocks"], data["undercuts"]) == (2, 3, 1)


def test_it_answers_404_for_unknown_ids(client, db):
    assert client.get("/api/matches/12345").status_code == 404
    assert client.get("/api/matches/12345/sheet.csv").status_code == 404
    assert client.get("/api/players/nobody").status_code == 404


def test_it_refuses_anything_but_get(client, fixed_matches):
    assert client.post(f"/api/matches/{fixed_matches[0].public_id}").status_code == 405


def test_it_names_matches_by_random_public_ids_and_not_by_their_row_number(client, fixed_matches):
    ids = [archived.public_id for archived in fixed_matches]
    assert all(len(public_id) == 12 and not public_id.isdigit() for public_id in ids) and len(set(ids)) == 3
    assert client.get(f"/api/matches/{fixed_matches[0].pk}").status_code == 404
    assert client.get(f"/en/archive/matches/{fixed_matches[0].pk}/").status_code == 404


@pytest.mark.django_db
def test_it_reveals_no_table_code_for_a_match_still_being_played(client):

    from games.archive.models import ArchivedMatch

    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    playing = ArchivedMatch.objects.get()
    data = client.get(f"/api/matches/{playing.public_id}").json()
    assert data["status"] == "playing" and "table_code" not in data
    assert code not in client.get(f"/api/matches/{playing.public_id}").content.decode()
    assert code not in client.get(f"/en/archive/matches/{playing.public_id}/").content.decode()


@pytest.mark.django_db
def test_it_reveals_no_table_code_for_a_finished_match_whose_table_plays_on(client):
    # After a rematch the same table plays the next match: its code would let a stranger
    # watch it and read its chat.
    from games.archive.models import ArchivedMatch

    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    send_now(code, Resign(0))
    finished = ArchivedMatch.objects.get()
    assert finished.status == ArchivedMatch.FINISHED
    data = client.get(f"/api/matches/{finished.public_id}").json()
    assert "table_code" not in data
    pages = [f"/api/matches/{finished.public_id}", f"/api/matches/{finished.public_id}/sheet.csv",
             f"/en/archive/matches/{finished.public_id}/", "/en/archive/",
             f"/en/players/{finished.player0.public_id}/", f"/api/players/{finished.player0.public_id}"]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200 and code not in response.content.decode(), page


@pytest.mark.django_db
def test_it_answers_404_for_the_sheet_of_a_match_still_being_played(client):

    from games.archive.models import ArchivedMatch

    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    assert client.get(f"/api/matches/{ArchivedMatch.objects.get().public_id}/sheet.csv").status_code == 404


def test_each_hands_sheet_comes_with_its_keys_in_the_order_of_the_matchs_sheet_as_stored(client, engine_match):
    # PostgreSQL's jsonb gives keys back sorted by length: each hand's sheet, made from the
    # match's, reads the same as the stored sheets read before they were dropped.
    data = client.get(f"/api/matches/{engine_match.public_id}").json()
    assert json.dumps(data["hands"][-1]["sheet"]) == json.dumps(data["sheet"])
    assert all(list(hand["sheet"]) == list(data["sheet"]) for hand in data["hands"])
