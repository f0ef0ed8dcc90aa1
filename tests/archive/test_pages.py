"""The archive's pages: list, filters, pagination (with and without htmx), match, player."""

import random

import pytest
from django.conf import settings

from games.archive import views
from games.archive.models import ArchivedMatch
from games.archive.simulate import play_match
from games.display.sheet import score_sheet
from tests.archive.helpers import hand, make_player, record, record_engine_match, start_match

LANGUAGES = [code for code, _name in settings.LANGUAGES]


@pytest.fixture
def many_matches(ana, ben):
    return [record(f"t{day}", (ana, ben), "hand", [hand(day % 2, "knock", 10 + day)], day=day) for day in range(25)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_answers_every_page_in_every_language(client, language, fixed_matches, engine_match, ana):
    pages = [
        f"/{language}/archive/",
        f"/{language}/archive/?player=Ana&scoring=hollywood",
        f"/{language}/archive/matches/{engine_match.public_id}/",
        f"/{language}/archive/matches/{engine_match.public_id}/?hand=1&step=5&seat=1",
        f"/{language}/archive/matches/{fixed_matches[0].public_id}/",
        f"/{language}/players/{ana.public_id}/",
    ]
    for page in pages:
        assert client.get(page).status_code == 200, page


def test_it_lists_finished_matches_newest_first(client, fixed_matches):
    single, one_game, hollywood = fixed_matches
    body = client.get("/en/archive/").content.decode()
    urls = [f"/en/archive/matches/{archived.public_id}/" for archived in (hollywood, one_game, single)]
    assert [body.index(url) for url in urls] == sorted(body.index(url) for url in urls)


def test_it_filters_by_player_name(client, fixed_matches):
    single, one_game, hollywood = fixed_matches
    response = client.get("/en/archive/?player=cyd")
    assert [archived.pk for archived in response.context["matches"]] == [hollywood.pk]


def test_it_filters_by_scoring_mode(client, fixed_matches):
    response = client.get("/en/archive/?scoring=game")
    assert [archived.table_code for archived in response.context["matches"]] == ["one-game"]


def test_it_leaves_unfinished_matches_out_of_the_list(client, ana, ben, fixed_matches):
    start_match("busy", (ana, ben), "game")
    codes = [archived.table_code for archived in client.get("/en/archive/").context["matches"]]
    assert "busy" not in codes and len(codes) == 3


def test_it_pages_without_javascript(client, many_matches):
    first = client.get("/en/archive/")
    assert len(first.context["matches"]) == 20
    assert 'href="?page=2"' in first.content.decode()
    second = client.get("/en/archive/?page=2")
    assert [archived.table_code for archived in second.context["matches"]] == [f"t{day}" for day in range(4, -1, -1)]
    assert "<html" in second.content.decode()


def test_it_keeps_the_filters_in_the_pagination_links(client, many_matches):
    body = client.get("/en/archive/?player=Ana&scoring=hand").content.decode()
    assert 'href="?player=Ana&amp;scoring=hand&amp;page=2"' in body


def test_it_sends_only_the_next_rows_to_htmx(client, many_matches):
    response = client.get("/en/archive/?page=2&more=1", headers={"HX-Request": "true"})
    body = response.content.decode()
    assert "<html" not in body
    assert body.count('class="archive-match"') == 5
    assert "archive-more" not in body


def test_it_shows_the_hollywood_sheet_hand_by_hand(client, fixed_matches):
    hollywood = fixed_matches[2]
    sheet = client.get(f"/en/archive/matches/{hollywood.public_id}/").context["score_sheet"]
    # Hand 1 (100) ends game 1; hand 2 (110) ends game 2; Cyd's first win could only go to
    # game 1, which is over: a row entered nowhere. Ana's third win ends game 3.
    assert [(row["hand"], row["note"]) for row in sheet["rows"]] == [
        (1, None), (2, None), (3, "entered_nowhere"), (4, None),
    ]
    assert (sheet["rows"][2]["winner_name"], sheet["rows"][2]["points"]) == ("Cyd", 100)
    assert [[cell["points"] for cell in row["cells"]] for row in sheet["rows"] if not row["note"]] == [
        [100, None, None, None, None, None],
        [None, None, 110, None, None, None],
        [None, None, None, None, 100, None],
    ]
    assert [[cell["ended"] for cell in row["cells"]] for row in sheet["rows"] if not row["note"]] == [
        [True, False, False, False, False, False],
        [False, False, True, False, False, False],
        [False, False, False, False, True, False],
    ]
    assert [game["winner_name"] for game in sheet["games"]] == ["Ana", "Ana", "Ana"]


def test_it_draws_the_sheet_with_the_tables_partial(client, fixed_matches):
    response = client.get(f"/en/archive/matches/{fixed_matches[2].public_id}/")
    assert "games/_score_sheet.html" in [template.name for template in response.templates]
    assert 'href="#hand-4"' in response.content.decode()


def test_it_shows_the_bonuses_and_totals(client, fixed_matches):
    body = client.get(f"/en/archive/matches/{fixed_matches[2].public_id}/").content.decode()
    assert "Bonus" in body and "<td>225</td>" in body and "Ana 985" in body


def test_it_replays_a_hand_step_by_step_from_either_seat(client, engine_match):
    hand_one = engine_match.hands.first()
    url = f"/en/archive/matches/{engine_match.public_id}/?hand=1&step=3&seat=0"
    replay = client.get(url).context["replay"]
    assert (replay["step"], replay["previous"], replay["next"]) == (3, 2, 4)
    assert replay["view"]["seat"] == 0 and len(replay["view"]["history"]) == 3
    other = client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=1&step=3&seat=1").context["replay"]
    assert other["view"]["hand"] != replay["view"]["hand"]
    last = client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=1&step={len(hand_one.moves)}&seat=1")
    assert last.context["replay"]["view"]["result"]["kind"] == hand_one.kind
    assert last.context["replay"]["next"] is None


def test_it_refuses_a_replay_of_a_hand_that_does_not_exist(client, engine_match):
    assert client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=99").status_code == 404
    assert client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=x").status_code == 404


def test_it_says_on_the_match_page_why_a_win_counted_in_no_game(client, fixed_matches):
    body = client.get(f"/en/archive/matches/{fixed_matches[2].public_id}/").content.decode()
    assert "Cyd won 100 points, entered in no game" in body


def test_it_answers_404_for_unknown_matches_and_players(client, db):
    assert client.get("/en/archive/matches/999/").status_code == 404
    assert client.get("/en/players/nobody/").status_code == 404


def test_it_shows_a_players_numbers_and_chart(client, ana, fixed_matches):
    body = client.get(f"/en/players/{ana.public_id}/").content.decode()
    assert "<svg" in body and body.count("<rect") == 3
    assert "Cyd" in body and "Ben" in body


def test_it_escapes_names(client, fixed_matches):
    evil = make_player("<b>x</b>")
    evil_match = record("evil", (evil, fixed_matches[0].player0), "hand", [hand(0, "gin", 25)], day=9)
    for url in ("/en/archive/", f"/en/archive/matches/{evil_match.public_id}/", f"/en/players/{evil.public_id}/"):
        page = client.get(url).content.decode()
        assert "<b>x</b>" not in page
        assert "&lt;b&gt;x&lt;/b&gt;" in page


def test_it_lists_one_players_matches_whatever_their_name(client, ana, fixed_matches):
    make_player("Ana")  # the same name, another player
    response = client.get(f"/en/archive/?player_id={ana.public_id}")
    assert {archived.pk for archived in response.context["matches"]} == {m.pk for m in fixed_matches}
    assert client.get("/en/archive/?player_id=nobody").status_code == 404


def test_it_links_a_player_page_to_that_players_matches(client, ana, fixed_matches):
    body = client.get(f"/en/players/{ana.public_id}/").content.decode()
    assert f"/en/archive/?player_id={ana.public_id}" in body


def test_it_says_how_each_hand_ended_in_the_tables_words(client, engine_match):
    body = client.get(f"/en/archive/matches/{engine_match.public_id}/").content.decode()
    knock = next(hand for hand in engine_match.hands.all() if hand.kind == "knock")
    names = (engine_match.player0.name, engine_match.player1.name)
    sides = knock.result["players"]
    loser, winner = sides[1 - knock.knocker]["deadwood_points"], sides[knock.knocker]["deadwood_points"]
    sentence = f"{names[knock.knocker]} knocked and beat {names[1 - knock.knocker]}: deadwood {loser} − {winner} = {knock.points}"
    assert sentence in body
    assert body.count('class="outcome"') == engine_match.hand_count


def test_it_filters_by_a_name_several_players_share(client, fixed_matches):
    # "n" is in Ana's and Ben's names: every match has one of them.
    response = client.get("/en/archive/?player=n")
    assert len(response.context["matches"]) == 3


def test_it_combines_one_players_matches_with_the_scoring_mode(client, ana, fixed_matches):
    assert [m.table_code for m in client.get("/en/archive/?player=cyd&scoring=hollywood").context["matches"]] == [
        "hollywood"
    ]
    assert client.get("/en/archive/?player=cyd&scoring=game").context["matches"] == []
    only_ana = client.get(f"/en/archive/?player_id={ana.public_id}&scoring=hand").context["matches"]
    assert [m.table_code for m in only_ana] == ["single"]


def test_it_pages_through_one_players_matches(client, ana, many_matches):
    first = client.get(f"/en/archive/?player_id={ana.public_id}")
    second = client.get(f"/en/archive/?player_id={ana.public_id}&page=2")
    assert len(first.context["matches"]) == 20 and first.context["has_next"]
    assert len(second.context["matches"]) == 5 and not second.context["has_next"]


def test_it_finds_every_match_of_a_name_shared_by_very_many_players(client, fixed_matches, monkeypatch):
    # As if thousands of players had an "n" in their name: the names are checked match by match.
    monkeypatch.setattr(views, "NAMED_AT_MOST", 1)
    assert views.named_ids("n") is None
    assert len(views.page_of_matches(0, 20, name="n")) == 3


def test_it_shows_the_sheet_as_the_table_showed_it(ana, ben):
    match = play_match("hollywood", 100, rng=random.Random(11))
    archived = record_engine_match((ana, ben), match)
    at_the_table = score_sheet(match.sheet.to_dict(), ["Ana", "Ben"])
    assert score_sheet(archived.sheet, ["Ana", "Ben"]) == at_the_table
    assert sum(cell["ended"] for row in at_the_table["rows"] for cell in row["cells"]) == 3
    assert [row["hand"] for row in at_the_table["rows"]] == list(range(1, len(match.results) + 1))


def test_it_says_a_match_still_being_played_is_in_progress(client, ana, ben):
    playing = start_match("live", (ana, ben), "game")
    page = client.get(f"/en/archive/matches/{playing.public_id}/").content.decode()
    assert "This match is in progress" in page
    assert "not finished" not in page


@pytest.mark.parametrize("query", [
    "page=1000000000000000000", "page=99999999999999999999999", "page=-5", "page=x",
    "player=Ana&page=1000000000000000000", "player_id={ana}&page=1000000000000000000",
])
def test_it_answers_any_page_number_without_an_error(client, ana, fixed_matches, query):
    response = client.get(f"/en/archive/?{query.format(ana=ana.public_id)}")
    assert response.status_code in (200, 404)


@pytest.mark.parametrize("query", [
    "hand=999&step=0&seat=0", "hand=1&step=-1&seat=0", "hand=1&step=0&seat=7", "hand=x", "hand=1&step=y",
    "hand=1&step=1000000000000000000000&seat=0", "hand=100000000000000000000000",
])
def test_it_answers_any_replay_position_without_an_error(client, engine_match, query):
    response = client.get(f"/en/archive/matches/{engine_match.public_id}/?{query}")
    assert response.status_code in (200, 404)


def result_in_the_list(client, archived):
    """The result column of `archived`'s row on the English archive list."""
    body = client.get("/en/archive/").content.decode()
    row = body[body.index(f"/en/archive/matches/{archived.public_id}/"):]
    return row[row.index('class="archive-result">') + len('class="archive-result">'):row.index("</span>\n</li>")]


def test_it_says_in_the_list_how_each_match_ended(client, ana, ben, fixed_matches, engine_match):
    resigned = record_engine_match((ana, ben), play_match("game", 100, rng=random.Random(3)), code="resign",
                                   ending=ArchivedMatch.RESIGNED, loser=0)
    claimed = record_engine_match((ana, ben), play_match("game", 100, rng=random.Random(4)), code="claim",
                                  ending=ArchivedMatch.LEFT, loser=1)
    hollywood_winner = engine_match.winner.name
    assert result_in_the_list(client, engine_match) == (
        f"{hollywood_winner} won ({engine_match.games_won0}–{engine_match.games_won1})")
    assert result_in_the_list(client, fixed_matches[0]) == "Ben won"
    assert result_in_the_list(client, resigned) == "Ben won: Ana resigned"
    assert result_in_the_list(client, claimed) == "Ana won: Ben left the table"


def test_it_answers_404_for_a_replay_of_a_hand_past_the_last_or_past_any_number(client, engine_match):
    url = f"/en/archive/matches/{engine_match.public_id}/"
    assert client.get(f"{url}?hand={engine_match.hand_count + 1}").status_code == 404
    assert client.get(f"{url}?hand=99999999999").status_code == 404  # past a small integer in the database
    assert client.get(f"{url}?hand={engine_match.hand_count}&step=3&seat=1").status_code == 200
