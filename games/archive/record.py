"""The one way a match enters the archive, and the one way it ends there.

Live play calls, in this order:

- `start_archived_match(...)` when both seats are taken and the match is dealt (and
  again for a rematch, with the next `match_number`). Its `id` is the protocol's
  `match_id`. Calling it twice returns the same row.
- `finish_archived_match(archive_id, match, finished_at, ending, loser)` when the match
  ends, in the transaction that ends it: played out (the engine says `match.is_over`),
  resigned, or left by a player. It is fed by the engine's own values: the `Match` holds
  every hand, its result and the sheet after it. Ending twice is a no-op.

The rows are built by `build_rows`, which `bulk.py` also uses to batch the rows of
simulated matches (`simulate_matches`, the benchmark).
"""

from django.db import transaction

from games.archive.models import ArchivedHand, ArchivedMatch, Player, PlayerResult
from games.archive.stats import refresh_totals


def start_archived_match(*, table_code, match_number, players, scoring, target, straight, oklahoma, started_at):
    """The archive row of a match being played (status "playing"); its id is `match_id`."""
    archived, _created = ArchivedMatch.objects.get_or_create(
        table_code=table_code,
        match_number=match_number,
        defaults={
            "player0": players[0], "player1": players[1], "scoring": scoring, "target": target,
            "straight": straight, "oklahoma": oklahoma, "started_at": started_at,
        },
    )
    return archived


def finish_archived_match(archive_id, match, finished_at, ending=ArchivedMatch.PLAYED, loser=None, by_clock=None):
    """End the archived match `archive_id` with the engine's `match`; returns its row.
    `by_clock` ({hand number: places in its moves}) names the moves a turn clock played.

    `ending` says how: PLAYED (the engine's winner wins), RESIGNED by seat `loser`, or LEFT
    by seat `loser` (the other claimed it). LEFT with no `loser` (nobody came back) keeps
    the match as ABANDONED: stored, but counted for no one.
    """
    with transaction.atomic():
        archived = ArchivedMatch.objects.select_related("player0", "player1").get(pk=archive_id)
        # The players' rows first, in id order (no deadlock between two such writers):
        # two matches of one player ending at once then read their streak and write their
        # totals one after the other, not both from the same old rows (PostgreSQL;
        # SQLite's IMMEDIATE transactions already run writers one at a time).
        lock_players(archived.players)
        if ArchivedMatch.objects.select_for_update().get(pk=archive_id).status != ArchivedMatch.PLAYING:
            return archived
        archived.finished_at = finished_at
        hands, results = build_rows(archived, match, streaks_before(archived.players), ending, loser, by_clock)
        archived.save()
        ArchivedHand.objects.bulk_create(hands)
        PlayerResult.objects.bulk_create(results)
        if results:
            refresh_totals(archived.players)
    return archived


def is_playing(archive_id):
    return ArchivedMatch.objects.filter(pk=archive_id, status=ArchivedMatch.PLAYING).exists()


def lock_players(players):
    list(Player.objects.select_for_update().filter(pk__in=[player.pk for player in players]).order_by("pk"))


def streaks_before(players):
    """Each player's current winning streak against people, keyed by player id."""
    streaks = {}
    for player in players:
        newest = PlayerResult.objects.filter(player=player, against_computer=False).order_by("-finished_at", "-id").first()
        streaks[player.pk] = newest.streak if newest else 0
    return streaks


def build_rows(archived, match, streaks, ending=ArchivedMatch.PLAYED, loser=None, by_clock=None):
    """Fill `archived` as ended and build (unsaved) its hand rows and its result rows.

    Pure: no query. `streaks` maps player id to the streak before this match and is
    updated, so a bulk loader can carry it from one match to the next.
    """
    return hand_rows(archived, match, by_clock), result_rows(archived, match, streaks, ending, loser)


def hand_rows(archived, match, by_clock=None):
    by_clock = by_clock or {}
    return [hand_row(archived, match, number, by_clock.get(number, [])) for number in range(1, len(match.results) + 1)]


def result_rows(archived, match, streaks, ending=ArchivedMatch.PLAYED, loser=None):
    """Fill `archived` as ended and build its result rows: none for an abandoned match."""
    winner = winning_seat(match, ending, loser)
    archived.ending = ending
    archived.hand_count = len(match.results)
    archived.sheet = match.sheet.to_dict()
    archived.total0, archived.total1 = match.sheet.totals
    archived.games_won0, archived.games_won1 = (match.sheet.games_won(seat) for seat in (0, 1))
    if winner is None:
        archived.status = ArchivedMatch.ABANDONED
        return []
    archived.status, archived.winner_seat = ArchivedMatch.FINISHED, winner
    return [result_row(archived, match, seat, streaks) for seat in (0, 1)]


def winning_seat(match, ending, loser):
    if ending == ArchivedMatch.PLAYED:
        if not match.is_over:
            raise ValueError("match_not_over")
        return match.winner
    if ending not in (ArchivedMatch.RESIGNED, ArchivedMatch.LEFT, ArchivedMatch.OUT_OF_TIME):
        raise ValueError(f"bad ending: {ending!r}")
    if loser is None and ending == ArchivedMatch.LEFT:
        return None
    if loser not in (0, 1):
        raise ValueError(f"bad loser: {loser!r}")
    return 1 - loser


def hand_row(archived, match, number, by_clock=()):
    """Hand `number` (from 1) of the engine's match, with its result (the sheet after it
    follows from the match's: ArchivedMatch.sheets_after_each_hand)."""
    saved = match.hands[number - 1].to_dict()
    return ArchivedHand(
        match=archived,
        number=number,
        dealer=saved["dealer"],
        result=match.results[number - 1].to_dict(),
        deck=saved["deck"],
        moves=saved["moves"],
        reshuffles=saved["reshuffles"],
        deal=saved.get("deal"),
        by_clock=list(by_clock),
    )


def result_row(archived, match, seat, streaks):
    """The match seen from `seat`: what the player page and the totals fold."""
    players = archived.players
    player, won = players[seat], seat == archived.winner_seat
    against_computer = players[1 - seat].is_computer
    sheet = match.sheet
    return PlayerResult(
        match=archived,
        seat=seat,
        player=player,
        opponent=players[1 - seat],
        scoring=archived.scoring,
        finished_at=archived.finished_at,
        against_computer=against_computer,
        won=won,
        total=sheet.totals[seat],
        opponent_total=sheet.totals[1 - seat],
        games_won=sheet.games_won(seat),
        shutouts=sum(1 for game in sheet.games if game.winner == seat and game.points[1 - seat] == 0),
        streak=streak_after(streaks, player.pk, won, against_computer),
        **hand_counts(match.results, seat),
    )


def streak_after(streaks, player_id, won, against_computer):
    """The player's winning streak after this match, kept in `streaks`: a streak counts
    matches against people only (against the computer: 0, and the streak is left as it was)."""
    if against_computer:
        return 0
    streaks[player_id] = streaks.get(player_id, 0) + 1 if won else 0
    return streaks[player_id]


def hand_counts(results, seat):
    """What the player page needs from the hands' results, seen from `seat`."""
    won = [result for result in results if result.winner == seat]
    lost = [result for result in results if result.winner == 1 - seat]
    return {
        "hands_won": len(won),
        "gins": sum(1 for result in won if result.kind == "gin"),
        "knocks": sum(1 for result in won if result.kind == "knock"),
        "undercuts_made": sum(1 for result in won if result.kind == "undercut"),
        "undercuts_suffered": sum(1 for result in lost if result.kind == "undercut"),
        "hand_points": sum(result.points for result in won),
    }
