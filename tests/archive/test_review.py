"""The computer's review of an archived match through the API: asked, queued, run by a real
worker, stored hand by hand, picked up again after a worker dies."""

import random
import sqlite3
import subprocess
import sys
import time

import pytest
from django.core.management import call_command
from django_tasks.backends.database.models import DBTaskResult

from games.archive.models import MatchReview
from games.archive.simulate import play_match
from tests import processes
from tests.archive.helpers import record_engine_match


@pytest.fixture
def short_match(ana, ben):
    """A single hand played by the engine, recorded as live play records it."""
    return record_engine_match((ana, ben), play_match("hand", rng=random.Random(3)), code="short")


def ask(client, archived):
    return client.post(f"/api/matches/{archived.public_id}/review")


def run_worker():
    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)


def test_it_answers_404_for_a_match_that_does_not_exist(client, db):
    assert client.post("/api/matches/AAAAAAAAAAAA/review").status_code == 404
    assert client.get("/api/matches/AAAAAAAAAAAA/review").status_code == 404


def test_it_queues_one_review_however_often_it_is_asked(client, short_match, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = ask(client, short_match)
        second = ask(client, short_match)
    assert (first.status_code, second.status_code) == (202, 202)
    assert first.json() == {"status": "pending", "progress": 0.0}
    assert MatchReview.objects.count() == 1 and DBTaskResult.objects.count() == 1


def test_it_answers_pending_then_ready_with_every_decision_of_both_seats(transactional_db, client, short_match):
    assert client.get(f"/api/matches/{short_match.public_id}/review").json() == {"status": "none"}
    ask(client, short_match)  # no transaction around it here: the task is queued at once
    assert client.get(f"/api/matches/{short_match.public_id}/review").json()["status"] == "pending"
    run_worker()
    data = client.get(f"/api/matches/{short_match.public_id}/review").json()
    assert data["status"] == "ready"
    assert len(data["seats"]) == 2 and 0 <= data["seats"][0]["accuracy"] <= 100
    moves = client.get(f"/api/matches/{short_match.public_id}").json()["hands"][0]["moves"]
    decisions = data["hands"][0]["decisions"]
    assert {d["seat"] for d in decisions} == {0, 1}
    for decision in decisions:
        assert set(decision) == {"step", "seat", "played", "best", "loss", "tag"}
        assert moves[decision["step"]] == decision["played"] and decision["loss"] >= 0
        assert decision["tag"] in (None, "inaccuracy", "mistake", "blunder")


def test_it_refuses_a_flood_of_requests_for_reviews(client, short_match, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "review": "3/m"}
    codes = [ask(client, short_match).status_code for _ in range(5)]
    assert codes[:3] == [202, 202, 202] and codes[3:] == [429, 429]


def test_it_refuses_to_review_a_match_with_no_finished_hand(client, ana, ben):
    from tests.archive.helpers import start_match

    archived = start_match("empty", (ana, ben), "hollywood")
    response = ask(client, archived)
    assert response.status_code == 409 and response.json()["error"]["code"] == "nothing_to_review"


# A game to 100 of five hands: the worker is killed once it has stored one, and more are left.
SETUP = """
import random
from games.archive.reviews import ask_for_review
from games.archive.simulate import play_match
from tests.archive.helpers import make_player, record_engine_match
archived = record_engine_match((make_player("Ana"), make_player("Ben")), play_match("game", 100, rng=random.Random(14)))
ask_for_review(archived)
"""
REQUEUE = """
from games.archive.models import MatchReview
from games.archive.reviews import requeue_if_stale
requeue_if_stale(MatchReview.objects.get())
"""


def manage(database, *args, stale="120", **options):
    env = {**processes.site_env(database), "GAMES_REVIEW_STALE_SECONDS": stale}
    return subprocess.Popen([sys.executable, "manage.py", *args], cwd=processes.ROOT, env=env, **options)


def read(path, query):
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


def wait_for(condition, seconds=240):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the worker stored no hand in time"
        time.sleep(0.1)


def test_it_goes_on_from_the_stored_hands_when_a_worker_is_killed_mid_review(tmp_path, migrated_sqlite):
    database = migrated_sqlite(tmp_path)
    path = database.removeprefix("sqlite:///")
    assert manage(database, "shell", "-c", SETUP).wait(timeout=120) == 0
    worker = manage(database, "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1")
    try:
        wait_for(lambda: read(path, "select count(*) from archive_reviewedhand")[0][0] >= 1)
    finally:
        worker.kill()
        worker.wait(timeout=30)
    stored = read(path, "select id, number from archive_reviewedhand")
    hand_count = read(path, "select hand_count, status from archive_matchreview")[0]
    assert hand_count[1] == "pending" and len(stored) < hand_count[0]
    assert manage(database, "shell", "-c", REQUEUE, stale="0").wait(timeout=120) == 0
    assert manage(database, "db_worker", "--batch", "--no-reload", "--no-startup-delay").wait(timeout=600) == 0
    assert read(path, "select status from archive_matchreview")[0][0] == "ready"
    after = read(path, "select id, number from archive_reviewedhand order by number")
    assert [number for _, number in after] == list(range(1, hand_count[0] + 1))
    assert set(stored) <= set(after)  # the hands stored before the kill were kept, not done again


def test_it_queues_a_pending_review_again_only_once_its_worker_has_been_silent_too_long(short_match, settings, django_capture_on_commit_callbacks):
    from games.archive.reviews import ask_for_review, requeue_if_stale

    with django_capture_on_commit_callbacks(execute=True):
        review = ask_for_review(short_match)
    requeue_if_stale(review)
    assert DBTaskResult.objects.count() == 1
    settings.GAMES_REVIEW_STALE_SECONDS = 0
    requeue_if_stale(review)
    assert DBTaskResult.objects.count() == 2
