"""The HTML side of live play: open a table, the table page, join, claim a seat.

The table page is where the seat cookie is set (a WebSocket cannot set one); play
itself then goes over the socket (`games.live.consumers`). Views read the snapshot the
table's owner publishes and change the table only by sending it a command (games.live.batch).
"""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.decorators import ratelimit

from games.archive.players import COOKIE_NAME as PLAYER_COOKIE
from games.archive.players import set_player_cookie
from games.display.messages import message
from games.errors import GameError
from games.live import render as table_render
from games.live.batch import send_now
from games.live.commands import RenewSecret, Sit
from games.live.opening import open_table as open_a_table
from games.live.seats import set_seat_cookie, token_from_cookies
from games.live.tables import live_tables, seat_for
from games.live.yours import waiting_count, your_tables as tables_of
from games.rates import rate_for


# Set by table.js: how this browser sorts a hand, and a hand's dragged order per table; the
# four-colour deck; a guided first hand skipped. Kept a year (table.js reads the age from the page).
SORT_COOKIE = "hand_sort"
ORDER_COOKIE_PREFIX = "hand_order_"
DECK_COOKIE = "deck"
GUIDE_COOKIE = "guide"
TABLE_COOKIE_AGE = 365 * 24 * 3600
# A knock, a resignation or a claim waits this long for its second press (table.js).
CONFIRM_SECONDS = 5
# Quick reactions in the chat, sent as the reader's words (every font has letters; not
# every phone has the same emoji).
REACTIONS = (_("Good game!"), _("Nice move!"), _("Oops!"), _("Thinking…"))


@require_POST
@ratelimit(group="open_table", key="ip", rate=rate_for)
def open_table(request):
    form = request.POST
    try:
        seated = open_a_table(
            form.get("name", ""),
            scoring=form.get("scoring", ""),
            # A single hand has no target: the form disables the choice, so none is sent.
            target=_int_or_none(form.get("target", "100")),
            straight=form.get("straight") == "on",
            oklahoma=form.get("oklahoma") == "on",
            player_token=request.COOKIES.get(PLAYER_COOKIE),
            # The form's "Play the computer" button sends the level chosen beside it.
            computer=form.get("computer_level") if "against_computer" in form else None,
            clock=_int_or_none(form.get("clock", "0")),
            pace=_int_or_none(form.get("pace", "0")),
        )
    except GameError as error:
        context = {"open_error": message(error.code), "open_form": form}
        return render(request, "games/open_table.html", context, status=400)
    return _seated_response(HttpResponseRedirect(reverse("games:table", kwargs={"code": seated.table.code})), seated)


@require_GET
@never_cache  # a seated player's page shows the seat's secret (the private claim link)
@ensure_csrf_cookie  # claim.js posts a "continue on another device" secret with it
def table_page(request, code):
    try:
        context = _page_context(request, *_seat_for(request, code))
    except GameError:
        return render(request, "games/no_table.html", status=404)
    return render(request, "games/table.html", context)


@require_POST
@ratelimit(group="join", key="ip", rate=rate_for)
def join(request, code):
    name = request.POST.get("name", "")
    try:
        # The creator's page learns at once that the seat is taken (a failed announcement is
        # only logged: the seat is committed, and the cookie is set regardless).
        seated = send_now(code, Sit(name, request.COOKIES.get(PLAYER_COOKIE),
                                    token_from_cookies(request.COOKIES, code))).answer
    except GameError as error:
        if error.code == "unknown_table":
            return render(request, "games/no_table.html", status=404)
        context = _page_context(request, *_seat_for(request, code))
        context.update(join_error=message(error.code), join_name=name)
        return render(request, "games/table.html", context, status=409 if error.code == "table_full" else 400)
    return _seated_response(redirect("games:table", code=code), seated)


@require_GET
@never_cache  # what the browser's seats are doing now
def your_tables(request):
    """Every table this browser holds a seat at, from its seat cookies: whose turn, the time
    left, newest activity first."""
    return render(request, "games/your_tables.html", {"tables": tables_of(request.COOKIES)})


@require_GET
@never_cache
def waiting_badge(request):
    """The header's badge: how many of this browser's tables wait for it."""
    return render(request, "games/waiting_badge.html", {"waiting": waiting_count(request.COOKIES)})


@require_POST
def claim(request, code):
    """"Continue on another device": the seat secret, posted by claim.js from the link's
    #fragment (a fragment never reaches a server log), becomes this browser's cookie."""
    token = request.POST.get("token", "")
    try:
        seat = seat_for(code, token)
    except GameError:
        return render(request, "games/no_table.html", status=404)
    response = redirect("games:table", code=code)
    return set_seat_cookie(response, code, token) if seat is not None else response


@require_POST
def revoke(request, code):
    """"End access on my other devices": the seat gets a new secret, this browser's cookie
    becomes it, and every other device holding the old one is a spectator from now on."""
    try:
        # Every socket holding the old secret is closed, in every process.
        _seat, token = send_now(code, RenewSecret(token_from_cookies(request.COOKIES, code))).answer
    except GameError as error:
        if error.code == "unknown_table":
            return render(request, "games/no_table.html", status=404)
        return redirect("games:table", code=code)  # no seat here: nothing to revoke
    return set_seat_cookie(redirect("games:table", code=code), code, token)


def _seat_for(request, code):
    """(the table's owner, its snapshot as the database has it now, the seat this browser
    holds or None, its token): GameError for an unknown table."""
    owner = live_tables.owner(code)
    snapshot = owner.refresh()
    token = token_from_cookies(request.COOKIES, code)
    return owner, snapshot, owner.seat_for(token), token


def _seated_response(response, seated):
    """The seat's cookie, and the player's for someone new, on the way back."""
    if seated.player_token:
        set_player_cookie(response, seated.player_token)
    return set_seat_cookie(response, seated.table.code, seated.token)


def _page_context(request, owner, snapshot, seat, token):
    code = owner.code
    seat_view = snapshot.state_for(seat)
    # The hand in the order this browser keeps (table.js's cookies): no jump after a reload.
    live = table_render.LiveView(seat_view, table_render.clean_sort(request.COOKIES.get(SORT_COOKIE)),
                                 table_render.clean_order(request.COOKIES.get(ORDER_COOKIE_PREFIX + code)))
    share_path = reverse("games:table", kwargs={"code": code}).removeprefix(f"/{get_language()}")
    # The secret rides in the fragment, which browsers never send to a server.
    claim_url = f"{request.build_absolute_uri(share_path)}#seat={token}" if seat is not None and token else None
    return {
        "code": code,
        "state": seat_view,
        "live": live.live,
        "live_html": live.whole(),
        # Without the language prefix: the friend lands in their own language.
        "share_url": request.build_absolute_uri(share_path),
        "claim_url": claim_url,
        "can_join": seat is None and seat_view["waiting_for_opponent"],
        "ws_path": reverse_ws(code),
        "claim_path": reverse("games:claim", kwargs={"code": code}),
        "revoke_path": reverse("games:revoke", kwargs={"code": code}),
        "chat": owner.chat_lines(),
        "reactions": REACTIONS,
        # table.js's delays: a control acts once its state has been seen as long as the server
        # asks (GAMES_MIN_SEEN_SECONDS), with a little margin for the frame's travel.
        "arm_ms": round(settings.GAMES_MIN_SEEN_SECONDS * 1000) + 50,
        "confirm_ms": CONFIRM_SECONDS * 1000,
        "cookie_age": TABLE_COOKIE_AGE,
        "four_colours": request.COOKIES.get(DECK_COOKIE) == "four",
        "guide_off": request.COOKIES.get(GUIDE_COOKIE) == "off",
    }


def reverse_ws(code):
    return f"/ws/tables/{code}/"


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
