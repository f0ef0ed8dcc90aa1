"""What the push notices do when the live tables tell them (games.live.turns), once a change
has committed, in the process that made it, on the move's path: queue a turn's notice for a
seat that is away and has subscriptions (the task worker sends it: games.push.notices), and
end subscriptions with the match or with the seat's old secret. Quick, and never raising.
"""

import logging

from django.db import DatabaseError

from games.push import keys
from games.push.models import Subscription
from games.push.tasks import notify_turn

logger = logging.getLogger(__name__)


def turn_began(turn):
    """Queue the notice of `turn` if its seat is away and has subscriptions: a seat whose page
    is open (as in most real-time play) costs no query."""
    if turn.present or not keys.is_configured():
        return
    try:
        if Subscription.objects.filter(seat_id=turn.seat_id).exists():
            notify_turn.enqueue(turn.code, turn.seat_id, turn.number, turn.key)
    except DatabaseError:
        logger.warning("the notice of a turn at table %s was not queued", turn.code, exc_info=True)


def match_ended(code):
    """A finished match ends its seats' subscriptions."""
    try:
        Subscription.objects.filter(seat__table__code=code).delete()
    except DatabaseError:
        logger.warning("the subscriptions of table %s were not ended", code, exc_info=True)


def seat_renewed(seat_id):
    """"End access on my other devices" ends the seat's subscriptions too: the devices that
    lost the seat are no longer told of its turns."""
    try:
        Subscription.objects.filter(seat_id=seat_id).delete()
    except DatabaseError:
        logger.warning("the subscriptions of a renewed seat were not ended", exc_info=True)
