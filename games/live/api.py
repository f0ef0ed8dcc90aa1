"""The JSON API for programs: open a table and join one. Play goes over
/ws/api/tables/<code>/ (see docs/protocol.md).

CSRF-exempt on purpose: these views read no cookie and return a fresh seat token,
so a forged cross-site request gains its author nothing.
"""

from django.http import JsonResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from games.display.messages import message
from games.engine import HOLLYWOOD
from games.errors import GameError
from games.live.batch import send_now
from games.live.commands import Sit
from games.live.frames import json_object
from games.live.opening import open_table as open_a_table
from games.rates import rate_for

MAX_BODY_BYTES = 4096
STATUS_FOR = {"unknown_table": 404, "table_full": 409, "too_many_requests": 429, "database_unavailable": 503}


@csrf_exempt
@require_POST
@ratelimit(group="open_table", key="ip", rate=rate_for)
def open_table(request):
    try:
        body = _json_body(request)
        seated = open_a_table(
            body.get("name"),
            scoring=body.get("scoring", HOLLYWOOD.name),
            target=body.get("target", 100),
            straight=body.get("straight", False),
            oklahoma=body.get("oklahoma", False),
            computer=body.get("computer"),
            clock=body.get("clock", 0),
            pace=body.get("pace", 0),
        )
    except GameError as error:
        return error_response(request, error)
    code = seated.table.code
    url = request.build_absolute_uri(reverse("games:table", kwargs={"code": code}))
    return JsonResponse({"code": code, "seat": seated.seat, "token": seated.token, "url": url}, status=201)


@csrf_exempt
@require_POST
@ratelimit(group="join", key="ip", rate=rate_for)
def join(request, code):
    try:
        body = _json_body(request)
        # The seat is committed before it is told: a failed announcement is only logged.
        seated = send_now(code, Sit(body.get("name"))).answer
    except GameError as error:
        return error_response(request, error)
    return JsonResponse({"seat": seated.seat, "token": seated.token})


def _json_body(request):
    if len(request.body) > MAX_BODY_BYTES:
        raise GameError("bad_request")
    return json_object(request.body or b"{}", refusal="bad_request")


def error_response(request, error):
    # The API has no language prefix: messages follow Accept-Language.
    with translation.override(translation.get_language_from_request(request)):
        text = message(error.code)
    return JsonResponse({"error": {"code": error.code, "message": text}}, status=STATUS_FOR.get(error.code, 400))
