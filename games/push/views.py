"""A seat's push subscription, posted by push.js from the table page when its player presses
"Notify me" (never asked for on load): the seat is the one this browser's cookie holds."""

from django.http import HttpResponse, JsonResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from games.errors import GameError
from games.live.frames import json_object
from games.live.seats import token_from_cookies
from games.live.tables import seat_for
from games.models import Seat
from games.push import keys
from games.push.models import Subscription
from games.rates import rate_for

MAX_BODY_BYTES = 4096


@require_POST
@ratelimit(group="push", key="ip", rate=rate_for)
def subscribe(request, code):
    seat = _seat_of(request, code)
    subscription = _subscription_in(request.body)
    if seat is None or subscription is None or not keys.is_configured():
        return JsonResponse({"error": "refused"}, status=400)
    Subscription.objects.update_or_create(seat=seat, endpoint=subscription["endpoint"], defaults={
        "p256dh": subscription["p256dh"], "auth": subscription["auth"], "language": get_language()})
    return HttpResponse(status=204)


@require_POST
def unsubscribe(request, code):
    seat = _seat_of(request, code)
    subscription = _subscription_in(request.body)
    if seat is not None and subscription is not None:
        Subscription.objects.filter(seat=seat, endpoint=subscription["endpoint"]).delete()
    return HttpResponse(status=204)


def _seat_of(request, code):
    """The Seat row this browser's cookie holds at table `code`, or None."""
    try:
        number = seat_for(code, token_from_cookies(request.COOKIES, code))
    except GameError:
        return None
    return None if number is None else Seat.objects.filter(table__code=code, number=number).first()


def _subscription_in(body):
    """{endpoint, p256dh, auth} of a PushSubscription.toJSON() body, or None."""
    if len(body) > MAX_BODY_BYTES:
        return None
    try:
        sent = json_object(body, refusal="bad_request")
    except GameError:
        return None
    endpoint, found = sent.get("endpoint"), sent.get("keys")
    if not isinstance(endpoint, str) or not endpoint.startswith("https://") or not isinstance(found, dict):
        return None
    p256dh, auth = found.get("p256dh"), found.get("auth")
    if not all(isinstance(key, str) and 0 < len(key) <= 200 for key in (p256dh, auth)):
        return None
    return {"endpoint": endpoint[:1000], "p256dh": p256dh, "auth": auth}
