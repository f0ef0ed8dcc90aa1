"""Push notices of a seat's turn, end to end without the internet: a move queues the notice on
the task queue, the worker sends it to a push service on this machine, and the test decrypts
what arrived with the subscription's keys, as the browser would."""

import logging

import pytest
from django.core.management import call_command
from django_tasks.backends.database.models import DBTaskResult

from games.live.batch import send_now
from games.live.commands import Arrive, Play, RenewSecret, Resign, Sit
from games.live.opening import open_table
from games.live.tables import live_tables
from games.models import Seat
from games.push import notices
from games.push.models import Notice, Subscription
from tests.push.endpoint import Receiver

pytestmark = pytest.mark.django_db(transaction=True)


def a_match():
    """Ana and Ben at a table; (its code, the seat to move, the seat that waits)."""
    ana = open_table("Ana", deal_seed="push")
    send_now(ana.table.code, Sit("Ben"))
    mover = live_tables.owner(ana.table.code).snapshot.to_move
    return ana.table.code, mover, 1 - mover


def subscribe(code, number, service, language="en"):
    receiver = Receiver()
    Subscription.objects.create(seat=Seat.objects.get(table__code=code, number=number),
                                endpoint=service.url(f"/push/{number}"), p256dh=receiver.p256dh,
                                auth=receiver.auth_secret, language=language)
    return receiver


def pass_the_upcard(code, mover):
    """The mover's first move: the turn passes to the other seat."""
    send_now(code, Play(mover, "pass", live_tables.owner(code).snapshot.version))


def run_the_worker():
    call_command("db_worker", batch=True, startup_delay=False, reload=False)


def test_a_move_queues_the_notice_of_the_turn_it_begins_and_sends_nothing_itself(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    pass_the_upcard(code, mover)
    assert push_service.received == []  # the move sent nothing: the notice waits on the queue
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "games.push.tasks.notify_turn" and queued.args_kwargs["args"][:1] == [code]


def test_a_turn_of_a_seat_without_a_subscription_queues_nothing(push_service):
    code, mover, waiter = a_match()
    subscribe(code, mover, push_service)  # the other seat's
    pass_the_upcard(code, mover)
    assert not DBTaskResult.objects.exists()


def test_the_worker_sends_a_notice_that_names_the_table_and_whose_turn_in_the_seats_language(push_service):
    code, mover, waiter = a_match()
    receiver = subscribe(code, waiter, push_service, language="es")
    pass_the_upcard(code, mover)
    run_the_worker()
    [(path, headers, body)] = push_service.received
    assert path == f"/push/{waiter}" and headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")  # signed with the site's VAPID key
    notice = receiver.decrypt(body)
    opponent = ("Ana", "Ben")[mover]
    assert notice["title"] == "Tu turno"
    assert notice["body"] == f"Mesa {code}: {opponent} te está esperando."
    assert notice["url"] == f"/es/t/{code}/" and notice["tag"] == f"table-{code}"
    assert DBTaskResult.objects.get().return_value == "sent"


def test_it_sends_one_notice_a_turn_however_often_it_is_told(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    pass_the_upcard(code, mover)
    seat_id = Seat.objects.get(table__code=code, number=waiter).pk
    turn = DBTaskResult.objects.get().args_kwargs["args"][3]
    assert notices.notify(code, seat_id, waiter, turn) == "sent"
    assert notices.notify(code, seat_id, waiter, turn) == "sent already"
    assert len(push_service.received) == 1 and Notice.objects.count() == 1


def test_a_turn_beginning_while_a_page_of_the_seat_is_open_queues_nothing(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    send_now(code, Arrive(waiter))  # a socket of the waiting seat's page
    pass_the_upcard(code, mover)
    assert not DBTaskResult.objects.exists()


def test_it_sends_nothing_once_a_page_of_the_seat_has_opened_since_the_turn_began(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    pass_the_upcard(code, mover)
    send_now(code, Arrive(waiter))
    run_the_worker()
    assert push_service.received == [] and DBTaskResult.objects.get().return_value == "a page is open"


def test_it_sends_nothing_for_a_turn_played_before_the_worker_came_to_it(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    pass_the_upcard(code, mover)
    send_now(code, Play(waiter, "pass", live_tables.owner(code).snapshot.version))
    run_the_worker()
    assert push_service.received == [] and DBTaskResult.objects.get().return_value == "played already"


def test_a_push_service_answering_410_gone_deletes_the_subscription(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    push_service.status = 410
    pass_the_upcard(code, mover)
    run_the_worker()
    assert len(push_service.received) == 1 and not Subscription.objects.exists()


def test_a_push_service_that_hangs_neither_delays_the_move_nor_keeps_the_worker(push_service, caplog):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    push_service.hang()
    pass_the_upcard(code, mover)  # returns with the notice queued: nothing was sent on its path
    assert push_service.received == []
    with caplog.at_level(logging.WARNING, logger="games.push.notices"):
        run_the_worker()  # gives up after PUSH_TIMEOUT_SECONDS (1 s here) instead of waiting on it
    assert len(push_service.received) == 1 and "did not answer in time" in caplog.text
    assert Subscription.objects.exists()  # a slow service is not a gone subscription


def test_the_end_of_the_match_ends_the_seats_subscriptions(push_service):
    code, mover, waiter = a_match()
    subscribe(code, waiter, push_service)
    subscribe(code, mover, push_service)
    send_now(code, Resign(mover))
    assert not Subscription.objects.exists()


def test_ending_access_on_other_devices_ends_the_seats_subscriptions(push_service):
    ana = open_table("Ana")
    code = ana.table.code
    send_now(code, Sit("Ben"))
    subscribe(code, 0, push_service)
    subscribe(code, 1, push_service)
    send_now(code, RenewSecret(ana.token))
    assert list(Subscription.objects.values_list("seat__number", flat=True)) == [1]
