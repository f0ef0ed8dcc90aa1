"""The computer's review of an archived match: asked for, queued as a task, stored hand by hand.

The weighing is games.computer.review's; here it is queued (Django's Tasks, the database
backend: `manage.py db_worker` runs it), stored as each hand is done (so a worker killed
mid-review loses nothing: the review is queued again once it has been silent
GAMES_REVIEW_STALE_SECONDS, and the next worker goes on from the stored hands), and read back.
"""

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Avg, Count
from django.utils import timezone
from django_tasks import task

from games.archive.models import MatchReview, ReviewedHand
from games.computer.review import review_hand, seat_summaries


def saved_match(archived, hands):
    """The archived match as games.engine.Match.to_dict() gives it, its first hands only."""
    return {
        "format": 1,
        "options": {"straight": archived.straight, "oklahoma": archived.oklahoma},
        "scoring": archived.scoring,
        "target": archived.target,
        "first_dealer": hands[0].dealer if hands else 0,
        "hands": [{"dealer": hand.dealer, "deck": hand.deck, "moves": hand.moves, "reshuffles": hand.reshuffles} for hand in hands],
    }


def ask_for_review(archived):
    """The match's review, queued if it is new, has fewer hands than are finished now, or its
    worker is taken for dead; None for a match with no finished hand. Idempotent."""
    finished = archived.hands.count()
    if not finished:
        return None
    now = timezone.now()
    with transaction.atomic():
        review, created = MatchReview.objects.select_for_update().get_or_create(
            match=archived, defaults={"hand_count": finished, "requested_at": now, "beat_at": now,
                                      "player0": archived.player0, "player1": archived.player1})
        grown = not created and review.hand_count < finished
        if grown:
            review.hand_count, review.status, review.beat_at = finished, MatchReview.PENDING, now
            review.save(update_fields=["hand_count", "status", "beat_at"])
    if created or grown:
        transaction.on_commit(lambda: review_match.enqueue(review.pk))
    else:
        requeue_if_stale(review)
    return review


def review_of(archived):
    """The match's review, or None (read with the match by `select_related("review")`, no query more)."""
    try:
        return archived.review
    except MatchReview.DoesNotExist:
        return None


def requeue_if_stale(review):
    """Queue a pending review again when its worker has stored nothing for too long."""
    if review.status != MatchReview.PENDING:
        return
    stale = timezone.now() - timedelta(seconds=settings.GAMES_REVIEW_STALE_SECONDS)
    # The compare-and-set keeps two pollers from queueing it twice.
    if MatchReview.objects.filter(pk=review.pk, beat_at__lt=stale).update(beat_at=timezone.now()):
        review_match.enqueue(review.pk)


@task()
def review_match(review_id):
    """Review every hand not stored yet, then the seats' summary."""
    review = MatchReview.objects.select_related("match").get(pk=review_id)
    archived = review.match
    hands = list(archived.hands.all()[:review.hand_count])
    save = saved_match(archived, hands)
    done = set(review.hands.values_list("number", flat=True))
    for hand in hands:
        if hand.number not in done:
            store_hand(review, review_hand(save, hand.number, archived.public_id).to_dict())
    finish(review)


def store_hand(review, reviewed):
    try:
        with transaction.atomic():
            ReviewedHand.objects.create(review=review, number=reviewed["number"], decisions=reviewed["decisions"],
                                        luck=reviewed["luck"], chances=reviewed["chances"])
    except IntegrityError:
        pass  # another worker stored it first (one taken for dead that was only slow): the same review
    MatchReview.objects.filter(pk=review.pk).update(beat_at=timezone.now())


def finish(review):
    hands = list(review.hands.filter(number__lte=review.hand_count))
    seats = seat_summaries([{"decisions": hand.decisions, "luck": hand.luck} for hand in hands])
    MatchReview.objects.filter(pk=review.pk, hand_count=review.hand_count).update(
        seats=seats, accuracy0=seats[0]["accuracy"], accuracy1=seats[1]["accuracy"], mistakes=tagged(hands),
        status=MatchReview.READY, beat_at=timezone.now())


def tagged(hands):
    """Every tagged decision of `hands` (ReviewedHand rows, in order), with its hand's number."""
    return [{**decision, "hand": hand.number} for hand in hands for decision in hand.decisions if decision["tag"]]


def player_accuracy(player):
    """(the mean accuracy over the player's reviewed matches, how many), or (None, 0)."""
    total, count = 0.0, 0
    for seat in (0, 1):
        found = MatchReview.objects.filter(status=MatchReview.READY, **{f"player{seat}": player}).aggregate(
            mean=Avg(f"accuracy{seat}"), count=Count("id"))
        total += (found["mean"] or 0.0) * found["count"]
        count += found["count"]
    return (round(total / count, 1), count) if count else (None, 0)


def review_record(review):
    """The API's answer (docs/review.md): pending with its progress, or ready with every hand."""
    if review.status == MatchReview.PENDING:
        done = review.hands.filter(number__lte=review.hand_count).count()
        return {"status": "pending", "progress": round(done / review.hand_count, 3)}
    hands = review.hands.filter(number__lte=review.hand_count)
    return {
        "status": "ready",
        "seats": review.seats,
        "hands": [{"number": hand.number, "decisions": [public_decision(d) for d in hand.decisions]} for hand in hands],
    }


def public_decision(decision):
    return {key: decision[key] for key in ("step", "seat", "played", "best", "loss", "tag")}
