"""The archive for programs: a match as JSON, its sheet as CSV, a player's stats."""

import csv
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods
from django_ratelimit.decorators import ratelimit

from games.archive import display, kept, reviews, stats
from games.archive.models import ArchivedMatch, MatchReview, Player
from games.display.messages import message
from games.rates import rate_for


def player_json_ref(player):
    return {"name": player.name, "player_id": player.public_id}


def hand_json(hand, sheet):
    """A stored hand: its result and the sheet after it exactly as live play sends them
    (`hand_result`, `sheet`), its moves, and its deal, deck and reshuffles as
    docs/verify_deal.py checks them (only finished hands are stored: nothing is revealed early)."""
    return {"number": hand.number, "dealer": hand.dealer, "result": hand.result, "moves": hand.moves,
            "by_clock": hand.by_clock, "sheet": sheet, "deal": hand.deal, "deck": hand.deck,
            "reshuffles": hand.reshuffles}


def match_record(archived, hands):
    return {
        "id": archived.public_id,
        "status": archived.status,
        "ending": archived.ending or None,
        "players": [player_json_ref(player) for player in archived.players],
        "scoring": archived.scoring,
        "target": archived.target,
        "options": {"straight": archived.straight, "oklahoma": archived.oklahoma},
        "started_at": archived.started_at.isoformat(),
        "finished_at": archived.finished_at.isoformat() if archived.finished_at else None,
        "hands": [hand_json(hand, sheet) for hand, sheet in zip(hands, archived.sheets_after_each_hand(), strict=True)],
        "sheet": archived.sheet,
        "totals": list(archived.totals),
        "games_won": list(archived.games_won),
        "winner": archived.winner_seat,
    }


def archived_match(match_id, unread=()):
    """The match and its hands, without the hands' columns `unread` (not needed, not decoded)."""
    archived = get_object_or_404(ArchivedMatch.objects.select_related("player0", "player1"), public_id=match_id)
    return archived, list(archived.hands.defer(*unread))


@require_GET
def match_json(request, match_id):
    archived = get_object_or_404(ArchivedMatch.objects.select_related("player0", "player1"), public_id=match_id)
    # As JsonResponse encodes it; kept encoded, its hands read only when it is not kept.
    body = kept.match_part(archived, "json", lambda: json.dumps(match_record(archived, list(archived.hands.all())),
                                                                cls=DjangoJSONEncoder), language=False)
    return HttpResponse(body, content_type="application/json")


@require_GET
def match_csv(request, match_id):
    # The sheet's rows read each hand's number, dealer and result only.
    archived, hands = archived_match(match_id, unread=("deck", "moves", "reshuffles", "by_clock", "deal"))
    if archived.sheet is None:
        raise Http404("a match still being played has no sheet yet")  # was a 500
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{archived.public_id}-sheet.csv"'
    # A byte-order mark first: without it spreadsheets read UTF-8 as Latin-1 ("JosÃ©").
    response.write("\ufeff")
    csv.writer(response).writerows(display.csv_rows(archived, hands))
    return response


@require_GET
def player_json(request, player_id):
    player = get_object_or_404(Player, public_id=player_id)
    return JsonResponse({**player_json_ref(player), **stats.player_stats(player)})


def refusal(request, code, status):
    """A refusal as the live API words it: a code and its message in the reader's language."""
    with translation.override(translation.get_language_from_request(request)):
        return JsonResponse({"error": {"code": code, "message": str(message(code))}}, status=status)


# CSRF-exempt as the live API: asking for a review reads no cookie and changes nothing but
# the queue, which the rate limit bounds.
@csrf_exempt
@require_http_methods(["GET", "POST"])
@ratelimit(group="review", key="ip", rate=rate_for, method="POST")
@ratelimit(group="review_poll", key="ip", rate=rate_for, method="GET")
def match_review(request, match_id):
    """POST asks for the computer's review (idempotent), GET reads it (docs/review.md)."""
    archived = get_object_or_404(ArchivedMatch.objects.select_related("player0", "player1", "review"), public_id=match_id)
    if request.method == "POST":
        review = reviews.ask_for_review(archived)
        if review is None:
            return refusal(request, "nothing_to_review", 409)
        return JsonResponse(reviews.review_record(review), status=202 if review.status == MatchReview.PENDING else 200)
    review = reviews.review_of(archived)
    if review is None:
        return JsonResponse({"status": "none"})
    reviews.requeue_if_stale(review)
    if review.status != MatchReview.READY:
        return JsonResponse(reviews.review_record(review))
    body = kept.review_part(archived, review, "json", lambda: json.dumps(reviews.review_record(review)), language=False)
    return HttpResponse(body, content_type="application/json")
