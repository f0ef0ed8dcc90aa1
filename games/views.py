"""The HTML side of live play: open a table, the table page, join, claim a seat.

The table page is where the seat cookie is set (a WebSocket cannot set one); play
itself then goes over the socket (`games.consumers`).
"""

from django.db import transaction
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games import broadcast
from games import render as table_render
from games import services
from games.archive.players import player_for_seat
from games.messages import message
from games.seats import set_seat_cookie, token_from_cookies
from games.services import GameError
from games.state import seat_state


@require_POST
def open_table(request):
    form = request.POST
    response = HttpResponseRedirect("/")  # its Location is known once the table is
    try:
        with transaction.atomic():
            table, token = services.open_table(
                form.get("name", ""),
                scoring=form.get("scoring", ""),
                target=_int_or_none(form.get("target")),
                straight=form.get("straight") == "on",
                oklahoma=form.get("oklahoma") == "on",
                player=_player(request, response, form.get("name", "")),
            )
    except GameError as error:
        context = {"open_error": message(error.code), "open_form": form}
        return render(request, "games/open_table.html", context, status=400)
    response["Location"] = reverse("games:table", kwargs={"code": table.code})
    return set_seat_cookie(response, table.code, token)


@require_GET
@never_cache  # a seated player's page shows the seat's secret (the private claim link)
@ensure_csrf_cookie  # claim.js posts a "continue on another device" secret with it
def table_page(request, code):
    try:
        table, seats, match = services.load(code)
    except GameError:
        return render(request, "games/no_table.html", status=404)
    token = token_from_cookies(request.COOKIES, code)
    seat = services.seat_holding(seats.values(), token)
    return render(request, "games/table.html", _page_context(request, table, seats, match, seat, token))


@require_POST
def join(request, code):
    response = redirect("games:table", code=code)
    name = request.POST.get("name", "")
    try:
        if services.find_seat(code, token_from_cookies(request.COOKIES, code)) is not None:
            return response  # already seated here: one browser never holds both seats
        with transaction.atomic():
            seat, token = services.take_seat(code, name, player=_player(request, response, name))
    except GameError as error:
        if error.code == "unknown_table":
            return render(request, "games/no_table.html", status=404)
        table, seats, match = services.load(code)
        seat = services.find_seat(code, token_from_cookies(request.COOKIES, code))
        context = _page_context(request, table, seats, match, seat, None)
        context.update(join_error=message(error.code), join_name=request.POST.get("name", ""))
        return render(request, "games/table.html", context, status=409 if error.code == "table_full" else 400)
    # The creator's page learns at once that the seat is taken. The seat is committed
    # by now: a failed announcement is only logged, and the cookie is set regardless.
    broadcast.announce(code, services.current_version(code))
    return set_seat_cookie(response, code, token)


@require_POST
def claim(request, code):
    """"Continue on another device": the seat secret, posted by claim.js from the link's
    #fragment (a fragment never reaches a server log), becomes this browser's cookie."""
    token = request.POST.get("token", "")
    try:
        seat = services.find_seat(code, token)
    except GameError:
        return render(request, "games/no_table.html", status=404)
    response = redirect("games:table", code=code)
    return set_seat_cookie(response, code, token) if seat is not None else response


def _player(request, response, name):
    """The archive's player for this browser (its cookie set on `response` if new)."""
    return player_for_seat(request, response, services.clean_name(name))


def _page_context(request, table, seats, match, seat, token):
    state = seat_state(table, seats, match, seat)
    share_path = reverse("games:table", kwargs={"code": table.code}).removeprefix(f"/{get_language()}")
    # The secret rides in the fragment, which browsers never send to a server.
    claim_url = f"{request.build_absolute_uri(share_path)}#seat={token}" if seat is not None and token else None
    return {
        "table": table,
        "state": state,
        "live": table_render.live_context(state, table_render.DEFAULT_SORT),
        # Without the language prefix: the friend lands in their own language.
        "share_url": request.build_absolute_uri(share_path),
        "claim_url": claim_url,
        "can_join": seat is None and 1 not in seats,
        "ws_path": reverse_ws(table.code),
        "claim_path": reverse("games:claim", kwargs={"code": table.code}),
    }


def reverse_ws(code):
    return f"/ws/tables/{code}/"


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
