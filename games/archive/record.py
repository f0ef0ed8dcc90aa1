"""The one way a match enters the archive, and the one way it ends there.

Live play calls, in this order:

- `start_archived_match(...)` when both seats are taken and the match is dealt (and
  again for a rematch, with the next `match_number`). Its `id` is the protocol's
  `match_id`. Calling it twice returns the same row.
- `record_finished_match(...)` when the engine says `match.is_over`, in the same
  transaction that saves the last move. Recording twice is a no-op.
- `record_unfinished_match(...)` when a match is abandoned: it is kept apart and
  never counted as a result.

Every finished match from live play is written by `finish_match_record`; its rows
are built by `result_rows` and `hand_row`, which `bulk.py` also uses to batch the
rows of simulated matches (`simulate_matches`, the benchmark).
"""

from django.db import transaction
from django.utils import timezone

from games.archive.engine_bridge import match_summary
from games.archive.models import ArchivedHand, ArchivedMatch, Player, PlayerResult
from games.archive.stats import refresh_totals


def start_archived_match(*, table_code, players, scoring, target, options, started_at=None, match_number=1):
    """The archive row of a match being played (status "playing"); its id is `match_id`."""
    archived, _created = ArchivedMatch.objects.get_or_create(
        table_code=table_code,
        match_number=match_number,
        defaults={
            "player0": players[0],
            "player1": players[1],
            "scoring": scoring,
            "target": target,
            "straight": options.straight,
            "oklahoma": options.oklahoma,
            "started_at": started_at or timezone.now(),
        },
    )
    return archived


def record_finished_match(
    *, table_code, players, scoring, target, options, started_at, match, match_number=1, finished_at=None
):
    """Store a match the engine says is over: every hand, the sheets, the result.

    `match` is the engine's `Match`; each hand's deck and moves come from its save
    format. Returns the ArchivedMatch.
    """
    hands, sheet = match_summary(match)
    return finish_match_record(
        table_code=table_code,
        match_number=match_number,
        players=players,
        scoring=scoring,
        target=target,
        straight=options.straight,
        oklahoma=options.oklahoma,
        started_at=started_at,
        finished_at=finished_at or timezone.now(),
        hands=hands,
        sheet=sheet,
    )


def record_unfinished_match(*, table_code, players, scoring, target, options, started_at, match_number=1):
    """Keep a match that will not be finished apart: status "unfinished", no result."""
    with transaction.atomic():
        archived = start_archived_match(
            table_code=table_code,
            match_number=match_number,
            players=players,
            scoring=scoring,
            target=target,
            options=options,
            started_at=started_at,
        )
        ArchivedMatch.objects.filter(pk=archived.pk, status=ArchivedMatch.PLAYING).update(
            status=ArchivedMatch.UNFINISHED
        )
    archived.refresh_from_db()
    return archived


def finish_match_record(
    *, table_code, match_number, players, scoring, target, straight, oklahoma, started_at, finished_at, hands, sheet
):
    """Write a finished match from plain data; the single writer of finished matches.

    `hands` is a list of dicts (see `build_rows`); `sheet` the final sheet in the
    protocol's shape, None for a single hand.
    """
    with transaction.atomic():
        # The players' rows first, in id order (no deadlock between two such writers):
        # two matches of one player ending at once then read their streak and write their
        # totals one after the other, not both from the same old rows (PostgreSQL;
        # SQLite's IMMEDIATE transactions already run writers one at a time).
        lock_players(players)
        archived, _created = ArchivedMatch.objects.select_for_update().get_or_create(
            table_code=table_code,
            match_number=match_number,
            defaults={"player0": players[0], "player1": players[1], "scoring": scoring, "started_at": started_at},
        )
        if archived.status == ArchivedMatch.FINISHED:
            return archived
        archived.player0, archived.player1 = players
        archived.scoring, archived.target = scoring, target
        archived.straight, archived.oklahoma = straight, oklahoma
        archived.started_at, archived.finished_at = started_at, finished_at
        hand_rows, results = build_rows(archived, hands, sheet, streaks_before(players))
        archived.save()
        ArchivedHand.objects.bulk_create(hand_rows)
        PlayerResult.objects.bulk_create(results)
        refresh_totals(players)
    return archived


def lock_players(players):
    list(Player.objects.select_for_update().filter(pk__in=[player.pk for player in players]).order_by("pk"))


def streaks_before(players):
    """Each player's current winning streak, keyed by player id."""
    streaks = {}
    for player in players:
        newest = PlayerResult.objects.filter(player=player).order_by("-finished_at", "-id").first()
        streaks[player.pk] = newest.streak if newest else 0
    return streaks


def build_rows(archived, hands, sheet, streaks):
    """Fill `archived` as finished and build (unsaved) its hand and result rows.

    Pure: no query. `streaks` maps player id to the streak before this match and is
    updated, so a bulk loader can carry it from one match to the next. Each hand is
    a dict with `dealer`, `winner` (seat or None), `kind`, `points`, and optionally
    `knocker`, `knock_card`, `melds`, `layoffs`, `deadwood`, `deadwood_points`,
    `deck`, `moves`, `reshuffles`, `sheet` (the sheet after this hand).
    """
    results = result_rows(archived, hands, sheet, streaks)
    return [hand_row(archived, number, hand) for number, hand in enumerate(hands, start=1)], results


def result_rows(archived, hands, sheet, streaks):
    """Fill `archived` as finished and build its two PlayerResult rows (see build_rows)."""
    players = (archived.player0, archived.player1)
    winner_seat = match_winner(hands, sheet)
    if winner_seat is None:
        raise ValueError("match_not_over")
    totals = match_totals(hands, sheet)
    archived.status = ArchivedMatch.FINISHED
    archived.winner_seat = winner_seat
    archived.total0, archived.total1 = totals
    archived.games_won0, archived.games_won1 = (games_won(sheet, seat) for seat in (0, 1))
    archived.hand_count = len(hands)
    archived.sheet = sheet
    results = []
    for seat in (0, 1):
        player = players[seat]
        won = seat == winner_seat
        streaks[player.pk] = streaks.get(player.pk, 0) + 1 if won else 0
        results.append(
            PlayerResult(
                match=archived,
                seat=seat,
                player=player,
                opponent=players[1 - seat],
                scoring=archived.scoring,
                finished_at=archived.finished_at,
                won=won,
                total=totals[seat],
                opponent_total=totals[1 - seat],
                games_won=games_won(sheet, seat),
                shutouts=shutouts(sheet, seat),
                streak=streaks[player.pk],
                **hand_counts(hands, seat),
            )
        )
    return results


def hand_row(archived, number, hand):
    winner = hand["winner"]
    players = (archived.player0, archived.player1)
    return ArchivedHand(
        match=archived,
        number=number,
        dealer=hand["dealer"],
        winner=winner,
        kind=hand["kind"],
        points=hand["points"] if winner is not None else 0,
        winner_player=players[winner] if winner is not None else None,
        loser_player=players[1 - winner] if winner is not None else None,
        knocker=hand.get("knocker"),
        knock_card=hand.get("knock_card") or "",
        melds=hand.get("melds", [[], []]),
        layoffs=hand.get("layoffs", [[], []]),
        deadwood=hand.get("deadwood", [[], []]),
        deadwood_points=hand.get("deadwood_points", [0, 0]),
        deck=hand.get("deck", []),
        moves=hand.get("moves", []),
        reshuffles=hand.get("reshuffles", []),
        sheet=hand.get("sheet"),
    )


def match_winner(hands, sheet):
    # A single hand has no sheet: its one winning hand decides.
    if sheet is None:
        return next((hand["winner"] for hand in hands if hand["winner"] is not None), None)
    return sheet["winner"]


def match_totals(hands, sheet):
    if sheet is None:
        totals = [0, 0]
        for hand in hands:
            if hand["winner"] is not None:
                totals[hand["winner"]] += hand["points"]
        return totals
    return list(sheet["totals"])


def games_won(sheet, seat):
    return sum(1 for game in (sheet or {}).get("games", []) if game["winner"] == seat)


def shutouts(sheet, seat):
    return sum(
        1 for game in (sheet or {}).get("games", []) if game["winner"] == seat and game["points"][1 - seat] == 0
    )


def hand_counts(hands, seat):
    """What the player page needs from the hands, seen from `seat`."""
    won = [hand for hand in hands if hand["winner"] == seat]
    lost = [hand for hand in hands if hand["winner"] == 1 - seat]
    return {
        "hands_won": len(won),
        "gins": sum(1 for hand in won if hand["kind"] == "gin"),
        "knocks": sum(1 for hand in won if hand["kind"] == "knock"),
        "undercuts_made": sum(1 for hand in won if hand["kind"] == "undercut"),
        "undercuts_suffered": sum(1 for hand in lost if hand["kind"] == "undercut"),
        "hand_points": sum(hand["points"] for hand in won),
    }
