"""The table's owner: the one writer of a live table, each change one method under its lock with a version check."""

import random

import pytest
from games.live.batch import send_now
from games.live.clean import clean_name
from games.live.commands import Arrive, Leave, Play, PressNextHand, PressRematch, Say, Sit
from games.live.opening import open_table
from games.live.tables import live_tables, seat_for
from games.errors import GameError
from games.models import ChatMessage, Move, Table

pytestmark = pytest.mark.django_db


def loaded(code):
    """(table, seats, match) of the table's owner in this process."""
    owner = live_tables.owner(code)
    return owner.table, owner.seats, owner.match


def seated_table():
    table, *_ = open_table("Ana", deal_seed="services")
    send_now(table.code, Sit("Ben")).answer
    return loaded(table.code)


@pytest.mark.parametrize("name, code", [
    ("", "name_missing"), (" \t ", "name_missing"), ("x" * 500, "name_too_long"),
    ("Ana\nBen", "name_not_printable"), ("\u202eAna", "name_not_printable"), (None, "name_missing"),
])
def test_it_refuses_bad_names(name, code):
    with pytest.raises(GameError) as refused:
        clean_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize("name", ["\u3164", "\u3164 \u3164", "\u2800\u2800", "\u200d", "\u3164\u200d\u2800",
                                  "\u0301\u0301", "\u2800\u00a0\u2800", "\uffa0\u115f\u1160"])
def test_it_refuses_a_name_with_nothing_visible_in_it(name):
    with pytest.raises(GameError) as refused:
        clean_name(name)
    assert refused.value.code == "name_invisible"


def test_it_refuses_a_name_whose_letter_carries_a_pile_of_accents():
    with pytest.raises(GameError) as refused:
        clean_name("a" + "\u0301" * 150)
    assert refused.value.code == "name_too_many_marks"
    with pytest.raises(GameError):
        clean_name("Ana" + "\u0301" * 5)


@pytest.mark.parametrize("name", ["Nguye\u0302\u0303n", "\u05e9\u05c1\u05b8\u05bc\u05dc\u05d5\u05b9\u05dd", "👩‍💻",
                                  "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "\u3164Ana", "❤️"])
def test_it_keeps_names_with_a_few_marks_joiners_and_fillers_beside_something_visible(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("text, code", [("\u200d", "chat_invisible"), ("\u3164\u2800", "chat_invisible"),
                                        ("\u200b\u2060\ufeff", "chat_invisible"), ("o" + "\u0308" * 30, "chat_too_many_marks")])
def test_it_refuses_a_chat_line_with_nothing_visible_or_a_pile_of_marks_and_stores_nothing(text, code):
    table, *_ = seated_table()
    with pytest.raises(GameError) as refused:
        send_now(table.code, Say(0, text))
    assert refused.value.code == code
    assert not ChatMessage.objects.exists()


def test_it_trims_names_and_keeps_24_characters():
    assert clean_name("  Ana  ") == "Ana"
    assert clean_name("Ñ" * 24) == "Ñ" * 24


def test_it_bumps_the_version_once_per_move():
    table, _, match = seated_table()
    before = table.version
    version = send_now(table.code, Play(match.hand.to_move, "pass", before)).version
    assert version == before + 1 == Table.objects.get().version
    assert list(Move.objects.values_list("text", "version")) == [("pass", version)]


def test_it_refuses_a_move_before_the_opponent_has_joined():
    table, *_ = open_table("Ana")
    mover = loaded(table.code)[2].hand.to_move
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(mover, "pass"))
    assert refused.value.code == "waiting_for_opponent"


def test_it_refuses_a_stale_version_and_writes_nothing():
    table, _, match = seated_table()
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(match.hand.to_move, "pass", table.version + 5))
    assert refused.value.code == "stale"
    assert not Move.objects.exists() and Table.objects.get().version == table.version


def test_it_refuses_the_second_of_two_moves_made_against_the_same_version():
    table, _, match = seated_table()
    mover = match.hand.to_move
    send_now(table.code, Play(mover, "pass", table.version))
    with pytest.raises(GameError):
        send_now(table.code, Play(mover, "pile", table.version))
    assert Move.objects.count() == 1


def test_it_passes_on_the_engines_reason_for_an_illegal_move():
    table, _, match = seated_table()
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(match.hand.to_move, "discard ZZ"))
    assert (refused.value.code, refused.value.reason) == ("illegal_move", "unknown_move")


def test_it_finds_a_seat_only_by_its_exact_token():
    table, _, token, *_ = open_table("Ana")
    assert seat_for(table.code, token) == 0
    assert seat_for(table.code, token + "x") is None
    assert seat_for(table.code, None) is None


def test_it_counts_presence_without_going_below_zero():
    from games.models import Presence
    table, _, _ = seated_table()
    send_now(table.code, Leave(0))
    send_now(table.code, Arrive(0))
    counted = dict(Presence.objects.values_list("seat__number", "connections"))
    assert counted == {0: 1}
    assert Table.objects.get().version == table.version


def test_it_shows_a_seat_offline_once_the_server_holding_its_socket_stops_beating(settings):
    from datetime import timedelta

    from django.utils import timezone

    from games.live import store
    from games.live.presence import is_present
    from games.models import Presence, Seat
    settings.GAMES_PRESENCE_TIMEOUT_SECONDS = 30
    table, _, _ = seated_table()
    now = timezone.now()
    Presence.objects.create(seat=Seat.objects.get(table=table, number=0), process="another-process",
                            connections=1, beat=now - timedelta(seconds=10))
    seat = store.seat_rows(table)[0]
    assert is_present(seat, now)
    assert not is_present(seat, now + timedelta(seconds=25))  # 35 s without a beat: that server is gone


def test_it_keeps_the_match_cached_when_a_move_is_refused():
    table, _, match = seated_table()
    mover = match.hand.to_move
    for seat, move in ((mover, "discard ZZ"), (mover, "stock"), (1 - mover, "pass")):
        with pytest.raises(GameError):
            send_now(table.code, Play(seat, move))
        # Still cached: the next frame costs no replay of the whole match.
        assert live_tables.get(table.code).match is match


def test_it_keeps_the_match_cached_when_next_hand_or_rematch_come_too_early():
    table, _, match = seated_table()
    for command in (PressNextHand(0), PressRematch(0)):
        with pytest.raises(GameError):
            send_now(table.code, command)
        assert live_tables.get(table.code).match is match


def test_it_names_the_engines_turn_and_hand_end_refusals_by_themselves():
    table, _, match = seated_table()
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(1 - match.hand.to_move, "pass"))
    assert (refused.value.code, refused.value.reason) == ("not_your_turn", None)


def reshuffled_stock(code, keep_cache):
    """Both seats draw from the stock and throw a card back until the stock is reshuffled."""
    while True:
        if not keep_cache:
            live_tables.clear()  # as if every move reached another server process
        hand = loaded(code)[2].hand
        if hand.reshuffles:
            return [str(card) for card in hand.reshuffles[0]]
        legal = hand.legal_moves()
        draws = [move for move in ("pass", "stock") if move in legal]
        discards = [move for move in legal if move.startswith("discard ")]
        send_now(code, Play(hand.to_move, (draws or discards)[0]))


@pytest.mark.django_db(transaction=True)  # the cache is filled only once a write commits
def test_it_reshuffles_a_seeded_table_the_same_whether_its_match_was_cached_or_not():
    stocks = []
    for keep_cache in (True, False):
        table, *_ = open_table("Ana", scoring="hand", deal_seed="reshuffle")
        send_now(table.code, Sit("Ben")).answer
        stocks.append(reshuffled_stock(table.code, keep_cache))
    assert stocks[0] == stocks[1]


def test_it_refuses_a_move_whose_number_the_log_already_holds_and_changes_nothing():
    table, _, match = seated_table()
    mover, before = match.hand.to_move, table.version
    # As if another process had logged move `before + 1` and not yet advanced the version.
    Move.objects.create(table=table, match_number=1, hand_number=1, version=before + 1, seat=mover, text="pass")
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(mover, "pile", before))
    assert refused.value.code == "stale"
    assert Table.objects.get().version == before and Move.objects.count() == 1
    # The owner that played the refused move in memory read the table afresh.
    assert live_tables.get(table.code).match is not match


def test_it_refuses_a_move_after_a_change_without_a_move_it_had_not_seen_and_logs_nothing():
    table, _, match = seated_table()
    mover, before = match.hand.to_move, table.version
    # As if another process had changed the table without logging a move (a press, a resignation).
    Table.objects.filter(pk=table.pk).update(version=before + 1)
    with pytest.raises(GameError) as refused:
        send_now(table.code, Play(mover, "pile", before))
    assert refused.value.code == "stale"
    assert Table.objects.get().version == before + 1 and not Move.objects.exists()


def test_it_gives_the_state_the_archived_matchs_public_id_as_its_match_id():
    from games.archive.models import ArchivedMatch

    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    match_id = live_tables.owner(code).snapshot.state_for(0)["match_id"]
    assert match_id == ArchivedMatch.objects.get().public_id and not match_id.isdigit()


def test_it_deals_every_real_table_from_one_system_random_that_keeps_no_state_of_its_own():
    # A SystemRandom of each room's own carried 2.5 KB of unused Mersenne Twister state (the soak).
    codes = [open_table(name).table.code for name in ("Ana", "Cyd")]
    first, second = (live_tables.owner(code).match.rng for code in codes)
    assert first is second and isinstance(first, random.SystemRandom)
