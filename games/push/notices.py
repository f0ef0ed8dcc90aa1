"""A push notice for a seat whose turn began, when no page of that seat is open.

The notice was queued by games.push.listeners; the task worker (games.push.tasks) `notify`s: it looks at the table as it is now (no notice
for a turn already played, nor while a page of the seat is open), claims the turn's one
notice (a unique row: two processes told of it send it once), and sends it to each of the
seat's subscriptions in the language each chose. A push service that answers 404 or 410 has
dropped the subscription, which is deleted; one that fails or times out is logged, no more.
"""

import json
import logging

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from pywebpush import WebPushException, webpush

from games.live.tables import refreshed
from games.live.yours import is_waiting_on
from games.push import keys
from games.push.models import Notice, Subscription

logger = logging.getLogger(__name__)
GONE = (404, 410)  # the push service no longer knows the subscription
TIME_TO_LIVE = 24 * 3600  # a notice not delivered within a day is stale


def notify(code, seat_id, number, turn):
    """Send the notice of `turn` to seat `number`'s subscriptions; says what it did."""
    subscriptions = list(Subscription.objects.filter(seat_id=seat_id))
    if not subscriptions:
        return "no subscription"
    state = refreshed(code).state_for(number)
    if not is_waiting_on(state, number) or state["match_over"]:
        return "played already"
    if state["players"][number]["connected"]:
        return "a page is open"
    opponent = state["players"][1 - number]["name"]
    messages = [(subscription, payload(code, opponent, subscription.language)) for subscription in subscriptions]
    if not claim(seat_id, turn):
        return "sent already"
    for subscription, message in messages:
        send(subscription, message)
    return "sent"


def claim(seat_id, turn):
    """Whether this process is the one to send the turn's notice (it inserted the claim)."""
    try:
        with transaction.atomic():
            Notice.objects.create(seat_id=seat_id, turn=turn)
    except IntegrityError:
        return False
    return True


def payload(code, opponent, language):
    """The notice as the service worker shows it, in `language`: it names the table and says
    whose turn it is."""
    with translation.override(language):
        return {
            "title": gettext("Your turn"),
            "body": gettext("Table %(code)s: %(name)s is waiting for you.") % {"code": code, "name": opponent},
            "url": reverse("games:table", kwargs={"code": code}),
            "tag": f"table-{code}",
        }


def send(subscription, message):
    try:
        webpush(subscription.info(), data=json.dumps(message), vapid_private_key=keys.vapid(),
                vapid_claims={"sub": settings.PUSH_VAPID_SUBJECT}, timeout=settings.PUSH_TIMEOUT_SECONDS,
                ttl=TIME_TO_LIVE)
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            subscription.delete()
            return
        logger.warning("a push service refused a notice (%s)", status)
    except requests.RequestException as error:
        logger.warning("a push service did not answer in time: %s", type(error).__name__)
