"""One push notice a turn with two processes: two task workers (`manage.py db_worker`, as each
server host runs one) on one PostgreSQL, the same turn's notice queued twice (as two server
processes told of it would), and a push service on this machine that holds the first message
until the other worker is done. The claim row lets one send; the push service gets one message.

Run in the PostgreSQL configuration of `dev.py test` (marker "scaleout").
"""

import subprocess
import sys
import time

import pytest
from django_tasks.backends.database.models import DBTaskResult

from games.live.batch import send_now
from games.live.commands import Play, Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from games.models import Seat
from games.push.models import Subscription
from games.push.tasks import notify_turn
from tests import processes
from tests.push.endpoint import Receiver, push_service  # noqa: F401 (a fixture)
from tests.scale.test_processes import ANSWER, database_url

pytestmark = [pytest.mark.scaleout, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


@pytest.fixture(autouse=True)
def vapid_key(settings):
    settings.PUSH_VAPID_PRIVATE_KEY = processes.TEST_VAPID_KEY


def worker(env):
    return subprocess.Popen([sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay", "--no-reload"],
                            cwd=processes.ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def until(found, seconds=ANSWER * 6):
    """Polls the database for what another process writes, up to a deadline."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found():
            return
        time.sleep(0.05)
    raise AssertionError("not written in time")


def test_two_workers_told_of_the_same_turn_send_one_notice(push_service):
    ana = open_table("Ana", deal_seed="push-once")
    code = ana.table.code
    send_now(code, Sit("Ben"))
    mover = live_tables.owner(code).snapshot.to_move
    waiter = Seat.objects.get(table__code=code, number=1 - mover)
    receiver = Receiver()
    Subscription.objects.create(seat=waiter, endpoint=push_service.url(), p256dh=receiver.p256dh,
                                auth=receiver.auth_secret, language="en")
    send_now(code, Play(mover, "pass", live_tables.owner(code).snapshot.version))
    first = DBTaskResult.objects.get()
    notify_turn.enqueue(*first.args_kwargs["args"])  # the same turn, told twice
    push_service.hang()
    env = processes.site_env(database_url(), PUSH_TIMEOUT_SECONDS="60")
    workers = [worker(env), worker(env)]
    try:
        # One worker sends and is held by the push service; the other finds the turn claimed.
        until(lambda: DBTaskResult.objects.filter(return_value="sent already").exists())
        push_service.release.set()
        for each in workers:
            assert each.wait(timeout=ANSWER * 6) == 0, each.stderr.read()
    finally:
        for each in workers:
            each.kill() if each.poll() is None else None
    results = DBTaskResult.objects.all()
    assert sorted(result.return_value for result in results) == ["sent", "sent already"]
    assert len({tuple(result.worker_ids) for result in results}) == 2  # one task in each worker
    [(_path, _headers, body)] = push_service.received
    assert receiver.decrypt(body)["url"] == f"/en/t/{code}/"
