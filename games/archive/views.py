"""The archive's pages: the list of matches, a match, a player, and claiming an identity."""

from urllib.parse import urlencode

from django.db.models import Q, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods

from django_ratelimit.decorators import ratelimit

from games.archive import display, kept, listing, review_display, reviews, stats
from games.archive.hands import hand_sections
from games.archive.models import ArchivedMatch, MatchReview, Player, PlayerResult
from games.archive.players import COOKIE_NAME, identify_player, player_for_token, set_player_cookie
from games.archive.replay import replay_view
from games.display.sheet import score_sheet
from games.engine import SCORINGS
from games.identity import is_public_id
from games.rates import rate_for

# A stored hand's columns that only a replay reads.
HAND_REPLAY = ("moves", "reshuffles", "by_clock")  # the deck is shown with each hand's deal
PAGE_SIZE = 20
NAMED_AT_MOST = 100
MAX_PAGE = 100_000  # two million matches deep, far past any real archive's end


def page_of_matches(start, size, name="", scoring="", player_id=None):
    """Finished matches `start` to `start + size`, newest first, through the index that fits.

    `player_id` (a Player's pk) or a name that only one player has: that player's own
    results, newest first (index player, -finished_at), so a busy player's page stops
    after `size` rows. A name many players share: the matches newest first (index
    status, -finished_at), keeping those where one of them sits.
    """
    if scoring not in SCORINGS:
        scoring = ""
    named = named_ids(name) if name else []
    if player_id is None and named is not None and len(named) == 1:
        player_id = named[0]
    # Not the sheet: a list row never shows it, and at a million matches reading and decoding
    # twenty sheets cost more than finding the page.
    matches = ArchivedMatch.objects.filter(status=ArchivedMatch.FINISHED).select_related("player0", "player1").defer("sheet")
    if player_id is not None:
        results = PlayerResult.objects.filter(player_id=player_id)
        results = results.filter(scoring=scoring) if scoring else results
        page = results.order_by("-finished_at", "-id").values("match_id")[start : start + size]
        return list(matches.filter(id__in=Subquery(page)).order_by("-finished_at", "-id"))
    if scoring:
        matches = matches.filter(scoring=scoring)
    if not name:
        # The page's ids skipped to in the index alone (an index-only scan), then only its
        # rows read and joined to their players: an OFFSET over the joined rows read every
        # skipped row and both its players.
        page = matches.order_by("-finished_at", "-id").values("id")[start : start + size]
        return list(matches.filter(id__in=Subquery(page)).order_by("-finished_at", "-id"))
    if named is None:
        matches = matches.filter(Q(player0__name__icontains=name) | Q(player1__name__icontains=name))
    else:
        matches = matches.filter(Q(player0__in=named) | Q(player1__in=named))
    return list(matches.order_by("-finished_at", "-id")[start : start + size])


def named_ids(name):
    """The ids of the players whose name contains `name`, or None when there are many.

    Few players: the matches are checked against a short list of ids. Many: the name
    is common, so walking the newest matches and checking their players' names finds
    a page soon (a subquery of ids instead made SQLite gather and sort them all).
    """
    ids = list(Player.objects.filter(name__icontains=name).values_list("id", flat=True)[: NAMED_AT_MOST + 1])
    return ids if len(ids) <= NAMED_AT_MOST else None


def page_number(request):
    """The page asked for, from 1; beyond MAX_PAGE a 404 (a huge offset overflows the
    database's integer: a 500 on SQLite)."""
    try:
        page = int(request.GET.get("page", 1))
    except ValueError:
        return 1
    if page > MAX_PAGE:
        raise Http404("no such page")
    return max(page, 1)


def filter_query(**filters):
    """The filters as the start of a query string, carried by every pagination link."""
    filters = {key: value for key, value in filters.items() if value}
    return urlencode(filters) + "&" if filters else ""


@require_GET
def archive_list(request):
    name = request.GET.get("player", "").strip()[:24]
    scoring = request.GET.get("scoring", "")
    player_id = request.GET.get("player_id", "")
    # Checked before the database sees them: a NUL byte is an error on PostgreSQL.
    if player_id and not is_public_id(player_id):
        raise Http404("no such player")
    if not name.isprintable():
        raise Http404("no player has such a name")  # names are printable (games.identity)
    player = get_object_or_404(Player, public_id=player_id) if player_id else None
    page = page_number(request)
    # One more than a page: whether there is a next page, without counting them all.
    matches = page_of_matches((page - 1) * PAGE_SIZE, PAGE_SIZE + 1, name, scoring, player and player.pk)
    context = {
        "matches": matches[:PAGE_SIZE],
        # Each row's HTML built in Python (games.archive.listing): per-row template tags
        # were most of the page's time.
        "rows": listing.match_rows(matches[:PAGE_SIZE]),
        "page": page,
        "has_next": len(matches) > PAGE_SIZE,
        "player": "" if player else name,
        "scoring": scoring,
        "scorings": SCORINGS,
        "only": player,
        "query": filter_query(player_id=player_id, player="" if player else name, scoring=scoring),
    }
    if request.htmx and request.GET.get("more"):
        return render(request, "archive/list.html#more", context)
    return render(request, "archive/list.html", context)


@require_GET
def match_detail(request, match_id):
    # Its review (if any) in the same query: the page links to it, or offers to ask for it.
    archived = get_object_or_404(ArchivedMatch.objects.select_related("player0", "player1", "review"), public_id=match_id)
    names = [player.name for player in archived.players]
    loser = archived.players[1 - archived.winner_seat] if archived.winner_seat is not None else None
    context = {
        "match": archived,
        "loser": loser,
        # Each hand's result and deal, read only when its section is not kept (games.archive.kept);
        # a replay reads the moves of its own hand alone.
        "hands": mark_safe(kept.match_part(archived, "hands", lambda: "".join(
            hand_sections(archived.hands.defer(*HAND_REPLAY), names)))),
        "score_sheet": mark_safe(kept.match_part(archived, "sheet", lambda: sheet_html(archived, names))),
        "replay": replay_from_request(request, archived),
        "review": reviews.review_of(archived),
    }
    if context["replay"] and context["review"] and context["review"].status == MatchReview.READY:
        context["replay"]["mistakes"] = replay_mistakes(archived, context["review"], context["replay"])
    return render(request, "archive/match.html", context)


def sheet_html(archived, names):
    """The match's score sheet as its page shows it; nothing for a match still being played (no sheet stored yet)."""
    if not archived.sheet:
        return ""
    return render_to_string("games/_score_sheet.html", {"score_sheet": score_sheet(archived.sheet, names), "link_hands": True})


def replay_mistakes(archived, review, replay):
    """The replay's links to the tagged decisions before and after its position."""
    before, after = review_display.neighbouring_mistakes(review, replay["hand"].number, replay["step"])
    return {"previous": before and review_display.replay_url(archived, *before),
            "next": after and review_display.replay_url(archived, *after),
            "here": review_display.mistake_at(review, replay["hand"].number, replay["step"])}


@require_http_methods(["GET", "POST"])
@ratelimit(group="review", key="ip", rate=rate_for, method="POST")
@ratelimit(group="review_poll", key="ip", rate=rate_for, method="GET")
def match_review(request, match_id):
    """The computer's review of a match: asked for by POST, its progress while pending (htmx
    polls it), every hand's graph and decisions once ready."""
    archived = get_object_or_404(ArchivedMatch.objects.select_related("player0", "player1", "review"), public_id=match_id)
    if request.method == "POST":
        reviews.ask_for_review(archived)
        return redirect("archive:review", match_id=archived.public_id)
    review = reviews.review_of(archived)
    if review is not None:
        reviews.requeue_if_stale(review)
    names = [player.name for player in archived.players]
    # The progress only while pending: a ready review's record reads every hand.
    pending = review is not None and review.status == MatchReview.PENDING
    context = {"match": archived, "review": review, "progress": pending and reviews.review_record(review)["progress"]}
    if review is not None and review.status == MatchReview.READY:
        if request.htmx:
            response = render(request, "archive/review.html#status", context)
            response["HX-Refresh"] = "true"  # the whole page, now that it is ready
            return response
        context["seats"] = review_display.seat_rows(review, names)
        context["hands"] = mark_safe(kept.review_part(archived, review, "hands", lambda: "".join(
            review_display.hand_sections(archived, review.hands.filter(number__lte=review.hand_count), names))))
    if request.htmx:
        return render(request, "archive/review.html#status", context)
    return render(request, "archive/review.html", context)


def replay_from_request(request, archived):
    """The replayed position `?hand=N&step=K&seat=S` asks for, or None."""
    if "hand" not in request.GET:
        return None
    try:
        number = int(request.GET["hand"])
        step = int(request.GET.get("step", 0))
        seat = int(request.GET.get("seat", 0))
    except ValueError:
        raise Http404("bad replay position")
    # Checked before the database sees it: a hand's number is a small integer there.
    hand = archived.hands.filter(number=number).first() if 1 <= number <= archived.hand_count else None
    if hand is None or seat not in (0, 1):
        raise Http404("no such hand, or none stored to replay")
    return replay_view(archived, hand, step, seat)


@require_GET
def player_detail(request, player_id):
    player = get_object_or_404(Player, public_id=player_id)
    recent = stats.recent_results(player)
    for row in recent:
        row["url"] = listing.url_for("archive:match", row["match__public_id"])
    opponents = stats.results_by_opponent(player)
    for row in opponents:
        row["url"] = listing.url_for("archive:player", row["player_id"])
    context = {
        "player": player,
        "stats": stats.player_stats(player),
        "opponents": opponents,
        "opponents_shown": stats.OPPONENTS_SHOWN,
        "recent": recent,
        "bars": display.chart_bars(recent),
        "chart_width": display.CHART_WIDTH,
        "chart_height": display.CHART_HEIGHT,
        "claim_token": own_token(request, player),
        "review_accuracy": reviews.player_accuracy(player),
    }
    response = render(request, "archive/player.html", context)
    if context["claim_token"]:
        # The page carries the visitor's secret: never cached, as the claim page is not.
        add_never_cache_headers(response)
    return response


def own_token(request, player):
    """The cookie's secret when this page is the visitor's own: for the private link."""
    me = identify_player(request)
    return request.COOKIES[COOKIE_NAME] if me is not None and me.pk == player.pk else None


@require_http_methods(["GET", "POST"])
@never_cache
@ensure_csrf_cookie  # claim.js posts the secret with it
def claim(request):
    """The private link, `/players/claim/#player=<secret>`: the secret rides in the
    fragment, which never reaches a server log, and claim.js posts it here (as the
    table's seat link does). GET is the page that does so; POST claims."""
    if request.method == "GET":
        return render(request, "archive/claim.html")
    token = request.POST.get("token", "")
    player = player_for_token(token)
    if player is None:
        raise Http404("no such identity")
    response = redirect("archive:player", player_id=player.public_id)
    set_player_cookie(response, token)
    return response
