"""Each page runs a bounded number of queries, however many matches there are."""

import pytest

from games.archive.record import finish_archived_match
from tests.archive.helpers import START, hand, make_player, record, scripted_match, start_match


@pytest.fixture
def crowd(ana, ben, cyd):
    players = [ana, ben, cyd] + [make_player(f"P{n}") for n in range(5)]
    matches = []
    for day in range(40):
        pair = (players[day % 8], players[(day + 3) % 8])
        hands = [hand(0, "knock", 30), hand(1, "gin", 40), hand(0, "undercut", 75)]
        matches.append(record(f"c{day}", pair, "game", hands, day=day))
    return matches


def test_it_lists_a_page_in_a_few_queries(client, crowd, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get("/en/archive/?player=Ana&scoring=game")
    assert response.status_code == 200
    with django_assert_max_num_queries(2):
        response = client.get("/en/archive/?page=2")
    assert response.status_code == 200


def test_it_shows_a_match_in_a_few_queries(client, engine_match, django_assert_max_num_queries):
    # The match, its hands' results, the replayed hand's moves; then, its hands kept, no results.
    with django_assert_max_num_queries(3):
        response = client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=2&step=9&seat=1")
    assert response.status_code == 200
    with django_assert_max_num_queries(2):
        response = client.get(f"/en/archive/matches/{engine_match.public_id}/?hand=2&step=10&seat=1")
    assert response.status_code == 200


def test_it_shows_a_player_in_a_few_queries(client, ana, crowd, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        response = client.get(f"/en/players/{ana.public_id}/")
    assert response.status_code == 200


def test_it_answers_the_api_in_a_few_queries(client, ana, crowd, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = client.get(f"/api/matches/{crowd[0].public_id}")
    assert response.status_code == 200
    with django_assert_max_num_queries(2):
        response = client.get(f"/api/matches/{crowd[0].public_id}/sheet.csv")
    assert response.status_code == 200
    with django_assert_max_num_queries(3):
        response = client.get(f"/api/players/{ana.public_id}")
    assert response.status_code == 200


def test_it_records_a_match_in_a_bounded_number_of_queries(ana, ben, django_assert_max_num_queries):
    # Thirty hands, still one insert for all of them; the totals refresh is a fixed
    # handful of queries whatever the players' history.
    many_hands = [hand(n % 2, "knock", 5) for n in range(29)] + [hand(0, "gin", 100)]
    started, match = start_match("long", (ana, ben), "game"), scripted_match("game", many_hands)
    with django_assert_max_num_queries(20):
        finished = finish_archived_match(started.pk, match, START)
    assert finished.hands.count() == 30
