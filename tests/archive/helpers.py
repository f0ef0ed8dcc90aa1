"""Matches for the archive's tests: scripted results in, stored records out."""

import random
from datetime import datetime, timedelta, timezone

from django.db import transaction

from games.archive.models import ArchivedMatch, Player
from games.archive.record import finish_archived_match, start_archived_match
from games.engine import HandResult, Match, Options, ShownHand
from games.identity import hash_token, new_token

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
NOTHING_SHOWN = ShownHand(melds=(), layoffs=(), deadwood=(), deadwood_points=0)


def make_player(name):
    return Player.objects.create(name=name, token_hash=hash_token(new_token()))


def hand(winner, kind, points):
    """How one hand is to end: the winner (None for no winner), the kind and the points."""
    return winner, kind, points if winner is not None else 0


def scripted_match(scoring, hands, target=100):
    """An engine Match whose hands end as scripted, without playing their cards: each hand
    is settled with the given result, then the engine scores it on its sheet, picks the next
    dealer and says when the match is over, as in play. The stats read only the results."""
    match = Match(Options(), scoring=scoring, target=target, first_dealer=0, rng=random.Random(1))
    for number, (winner, kind, points) in enumerate(hands):
        if number:
            match.next_hand()
        knocker = {"gin": winner, "knock": winner, "undercut": None if winner is None else 1 - winner}.get(kind)
        result = HandResult(winner, points, kind, knocker, None, (NOTHING_SHOWN, NOTHING_SHOWN))
        match.hand._end(result)
        match._score_if_over()
    return match


def record(code, players, scoring, hands, target=100, day=0):
    """Record a scripted match as live play does: started, then finished. Nothing is kept
    when it cannot be finished."""
    with transaction.atomic():
        archived = start_match(code, players, scoring, target, START + timedelta(days=day))
        return finish_archived_match(archived.pk, scripted_match(scoring, hands, target),
                                     START + timedelta(days=day, hours=1))


def start_match(code, players, scoring, target=100, started_at=START):
    return start_archived_match(
        table_code=code, match_number=1, players=players, scoring=scoring, target=target,
        straight=False, oklahoma=False, started_at=started_at,
    )


def record_engine_match(players, match, code="engine", ending=ArchivedMatch.PLAYED, loser=None):
    """A match played by the engine, recorded as live play records it."""
    archived = start_match(code, players, match.scoring, match.target)
    return finish_archived_match(archived.pk, match, START + timedelta(hours=1), ending, loser)


def store_review(archived, decisions_by_hand, chances=((0, 50.0), (4, 62.5))):
    """A ready review of `archived` as the worker stores one, with these decisions per hand."""
    from django.utils import timezone

    from games.archive.models import MatchReview, ReviewedHand
    from games.archive.reviews import tagged

    seat = {"accuracy": 90.0, "inaccuracies": 0, "mistakes": 0, "blunders": 1, "luck": 0.5}
    review = MatchReview.objects.create(match=archived, player0=archived.player0, player1=archived.player1,
                                        status=MatchReview.READY, hand_count=len(decisions_by_hand),
                                        seats=[seat, seat], accuracy0=90.0, accuracy1=90.0,
                                        requested_at=timezone.now(), beat_at=timezone.now())
    hands = [ReviewedHand.objects.create(review=review, number=number, decisions=decisions, luck=[], chances=list(chances))
             for number, decisions in enumerate(decisions_by_hand, 1)]
    review.mistakes = tagged(hands)
    review.save(update_fields=["mistakes"])
    return review


def decision(step, seat, played, best, loss=0.0, tag=None):
    return {"step": step, "seat": seat, "played": played, "best": best, "loss": loss, "tag": tag}
