"""Live play over the JSON socket, through the real ASGI stack and channel layer."""

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async

from games.live import hub

from games.live.owner import LiveTable, act, live_tables, open_table
from games.live.broadcast import revoked
from games.engine import HOLLYWOOD
from games.models import Move, Table
from tests.live.helpers import (
    api_socket, both_press, browser_socket, choose_move, error_frame, open_seated_table, receive, state_at, state_where,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def seated_sockets(scoring="hollywood", **options):
    code, tokens = await open_seated_table(scoring, **options)
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in sockets]
    return code, tokens, sockets, states


def both_connected(state):
    return all(player and player["connected"] for player in state["players"])


async def play(sockets, states, move=None):
    """The seat to move plays (its choice, or `move`); returns both seats' next states."""
    mover = states[0]["to_move"]
    version = states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": move or choose_move(states[mover]), "version": version})
    return [await state_at(socket, version + 1) for socket in sockets]


async def next_hand(sockets, states):
    return await both_press(sockets, states, "next_hand")


async def close(*sockets):
    for socket in sockets:
        await socket.disconnect()


@database_sync_to_async
def table_row(code):
    return Table.objects.get(code=code)


@database_sync_to_async
def move_count(code):
    return Move.objects.filter(table__code=code).count()


async def test_it_plays_a_whole_hollywood_match_from_two_seats_and_keeps_the_sheet(settings):
    # The test's players answer faster than any bot over a network would.
    settings.GAMES_WS_RATE_PER_SECOND = 1000
    code, _, sockets, states = await seated_sockets("hollywood")
    results = []
    while not states[0]["match_over"]:
        while states[0]["hand_result"] is None:
            states = await play(sockets, states)
        assert states[0]["hand_result"] == states[1]["hand_result"]
        results.append(states[0]["hand_result"])
        if not states[0]["match_over"]:
            states = await next_hand(sockets, states)
    expected = HOLLYWOOD.new_sheet(100)
    for result in results:
        expected.record(winner=result["winner"], points=result["points"])
    sheet = states[0]["sheet"]
    assert sheet == states[1]["sheet"]
    assert [game["points"] for game in sheet["games"]] == [list(game.points) for game in expected.games]
    assert [game["bonus"] for game in sheet["games"]] == [list(game.bonus) for game in expected.games]
    assert sheet["totals"] == list(expected.totals) and sheet["is_over"]
    assert states[0]["match_winner"] == expected.winner == sheet["winner"]
    # The move log holds every move of the match, as its replay from the database shows.
    rebuilt = await database_sync_to_async(LiveTable)(code)
    assert await move_count(code) == sum(len(hand.history) for hand in rebuilt.match.hands)
    await close(*sockets)


async def test_it_never_sends_a_spectator_a_hand_before_the_showdown():
    code, _, sockets, states = await seated_sockets("hand")
    watcher = await api_socket(code)
    seen = [await receive(watcher)]
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
        seen.append(await state_at(watcher, states[0]["version"]))
    for state in seen[:-1]:
        assert state["seat"] is None and state["hand"] is None and state["melds"] is None
        assert card_codes(state) <= public_cards(state)
    assert seen[-1]["hand_result"]["players"][0]["melds"] is not None
    await close(watcher, *sockets)


async def test_it_never_sends_a_player_the_opponents_hidden_cards():
    _, _, sockets, states = await seated_sockets("hand")
    while states[0]["hand_result"] is None:
        for seat in (0, 1):
            mine, theirs = states[seat], states[1 - seat]
            public = {mine["discard_top"], *mine["opponent_known"]}
            assert not card_codes(mine) & (set(theirs["hand"]) - public)
        states = await play(sockets, states)
    await close(*sockets)


def public_cards(state):
    """What anyone at the table has seen face up: the pile, the first upcard, the cards
    taken from the pile, the discards named in the history."""
    discarded = {move.split()[1] for _seat, move in state["history"] if " " in move}
    return {*state["pile"], state["upcard"], *state["known"][0], *state["known"][1], *discarded}


def card_codes(state):
    return set(re.findall(r'"([A2-9TJQK][CDHS])"', json.dumps(state)))


async def test_it_never_renders_a_hand_into_a_spectators_page():
    code, _, sockets, states = await seated_sockets("hollywood")
    watcher = await browser_socket(code)
    frame = await receive(watcher)
    states = await play(sockets, states)
    later = await state_at(watcher, states[0]["version"])
    for html in (frame["html"], later["html"]):
        assert "my-hand" not in html and "data-move" not in html
    await close(watcher, *sockets)


async def test_it_refuses_a_move_against_an_old_version_and_sends_the_fresh_state():
    code, _, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": states[0]["version"] - 1})
    error = await error_frame(sockets[mover])
    fresh = await receive(sockets[mover])
    assert error["code"] == "stale" and error["message"]
    assert fresh["type"] == "state" and fresh["version"] == states[0]["version"]
    assert await move_count(code) == 0
    await close(*sockets)


async def test_it_refuses_an_illegal_move_and_changes_nothing():
    code, _, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    await sockets[mover].send_json_to({"type": "move", "move": "discard 2C"})
    error = await error_frame(sockets[mover])
    assert error["code"] == "illegal_move" and error["reason"] == "must_draw_first"
    assert (await table_row(code)).version == states[0]["version"]
    await close(*sockets)


async def test_it_refuses_a_move_out_of_turn():
    code, _, sockets, states = await seated_sockets()
    waiting = 1 - states[0]["to_move"]
    await sockets[waiting].send_json_to({"type": "move", "move": "pass"})
    assert (await error_frame(sockets[waiting]))["code"] == "not_your_turn"
    assert await move_count(code) == 0
    await close(*sockets)


async def test_it_refuses_a_spectators_move():
    code, _, sockets, states = await seated_sockets()
    watcher = await api_socket(code)
    await receive(watcher)
    await watcher.send_json_to({"type": "move", "move": "pass"})
    assert (await error_frame(watcher))["code"] == "spectator"
    assert await move_count(code) == 0
    await close(watcher, *sockets)


@pytest.mark.parametrize("frame, code", [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "move"}', "malformed"),
    ('{"type": "move", "move": "pass", "version": "12"}', "malformed"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "move", "move": "' + "x" * 5000 + '"}', "too_large"),
])
async def test_it_answers_a_malformed_frame_with_an_error_and_keeps_the_socket(frame, code):
    table, _, sockets, states = await seated_sockets()
    await sockets[0].send_to(text_data=frame)
    assert (await error_frame(sockets[0]))["code"] == code
    await sockets[0].send_json_to({"type": "next_hand"})
    assert (await error_frame(sockets[0]))["code"] == "no_next_hand"
    assert await move_count(table) == 0
    await close(*sockets)


@pytest.mark.parametrize("frame, code", [
    ('{"type": ["move"]}', "unknown_type"),
    ('{"type": {"move": 1}}', "unknown_type"),
    ('{"type": 7}', "unknown_type"),
    ('{"type": "move", "move": ["pass"]}', "malformed"),
    ('{"type": "move", "move": "pass", "version": [1]}', "malformed"),
    ("[" * 1024 + "]" * 1024, "malformed"),  # deeper than the JSON parser goes
    ('{"type": "move", "move": ' + "[" * 1000 + "]" * 1000 + "}", "malformed"),
])
async def test_it_answers_a_frame_of_odd_json_types_with_an_error_and_logs_no_traceback(frame, code, caplog):
    _, _, sockets, _ = await seated_sockets()
    await sockets[0].send_to(text_data=frame)
    assert (await error_frame(sockets[0]))["code"] == code
    await sockets[0].send_json_to({"type": "next_hand"})
    assert (await error_frame(sockets[0]))["code"] == "no_next_hand"
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    await close(*sockets)


async def test_it_answers_an_odd_sort_frame_on_the_page_socket_with_the_default_sort(caplog):
    code, tokens = await open_seated_table()
    socket = await browser_socket(code, tokens[0])
    await receive(socket)
    await socket.send_to(text_data='{"type": ["sort"]}')
    assert (await error_frame(socket))["code"] == "unknown_type"
    await socket.send_to(text_data='{"type": "sort", "by": {"rank": 1}}')
    assert (await state_where(socket, lambda state: True))["type"] == "state"
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    await socket.disconnect()


async def test_it_answers_a_binary_frame_with_an_error():
    _, _, sockets, _ = await seated_sockets()
    await sockets[0].send_to(bytes_data=b"\x00\x01")
    assert (await error_frame(sockets[0]))["code"] == "malformed"
    await close(*sockets)


async def test_it_limits_how_many_frames_a_connection_may_send(settings):
    settings.GAMES_WS_RATE_PER_SECOND = 1  # however slowly this machine answers, the bucket stays empty
    _, _, sockets, _ = await seated_sockets()
    for _ in range(100):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    codes = [(await error_frame(sockets[0]))["code"] for _ in range(100)]
    assert "rate_limited" in codes
    await close(*sockets)


async def test_it_counts_binary_and_oversized_frames_against_the_limit_too(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(5):
        await sockets[0].send_to(bytes_data=b"\x00" * 10_000)
    await sockets[0].send_to(text_data="x" * 10_000)
    codes = [(await error_frame(sockets[0]))["code"] for _ in range(6)]
    assert codes == ["malformed"] * 5 + ["rate_limited"]
    await close(*sockets)


async def test_it_closes_a_client_that_keeps_sending_past_its_limit(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    code, tokens, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    # A burst's worth of refusals in a row, then the socket is closed as a policy violation,
    # with a code from the application's range that every server sends (daphne refuses 1008):
    # no answer is queued for a client that may never read them.
    while (output := await sockets[0].receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert output["code"] == 4008
    await sockets[1].disconnect()


async def test_it_sends_nothing_on_a_socket_after_closing_it(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    while (await sockets[0].receive_output(timeout=5))["type"] != "websocket.close":
        pass
    # Its client has not gone yet: its frames still arrive, and the table still changes.
    await sockets[0].send_to(text_data='{"type": "next_hand"}')
    await sockets[1].send_json_to({"type": "chat", "text": "Still there?"})
    while (await receive(sockets[1]))["type"] != "chat":
        pass
    assert await sockets[0].receive_nothing(timeout=0.5)  # uvicorn logs each send after a close
    await sockets[1].disconnect()


async def first_refusal(*sockets):
    """The code of the first error frame any of these sockets gets."""
    waits = [asyncio.ensure_future(error_frame(socket)) for socket in sockets]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    assert len(done) == 1
    return done.pop().result()["code"]


async def test_it_applies_only_one_of_two_racing_moves():
    code, tokens, sockets, states = await seated_sockets()
    mover = states[0]["to_move"]
    second_tab = await api_socket(code, tokens[mover])
    await state_where(second_tab, lambda state: True)
    version = states[0]["version"]
    await asyncio.gather(
        sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version}),
        second_tab.send_json_to({"type": "move", "move": "pile", "version": version}),
    )
    await state_at(sockets[1 - mover], version + 1)
    # The loser (whichever it was) is told its move came too late.
    assert await first_refusal(sockets[mover], second_tab) == "stale"
    assert await move_count(code) == 1
    assert (await table_row(code)).version == version + 1
    await close(second_tab, *sockets)


async def test_it_sends_the_full_state_on_reconnect_in_the_middle_of_a_hand():
    code, tokens, sockets, states = await seated_sockets()
    for _ in range(5):
        states = await play(sockets, states)
    await sockets[0].disconnect()
    again = await api_socket(code, tokens[0])
    state = await state_where(again, lambda state: state["players"][0]["connected"])
    assert state["hand"] == states[0]["hand"] and state["version"] == states[0]["version"]
    assert state["legal_moves"] == states[0]["legal_moves"]
    await close(again, sockets[1])


async def test_it_continues_a_match_from_the_database_alone_as_after_a_restart():
    code, tokens, sockets, states = await seated_sockets()
    for _ in range(7):
        states = await play(sockets, states)
    await close(*sockets)
    live_tables.clear()  # what a restarted process would have in memory
    rebuilt = await database_sync_to_async(LiveTable)(code)
    assert rebuilt.match.hand.view(0)["hand"] == states[0]["hand"]
    sockets = [await api_socket(code, token) for token in tokens]
    resumed = [await state_where(socket, both_connected) for socket in sockets]
    assert [state["hand"] for state in resumed] == [state["hand"] for state in states]
    assert resumed[0]["sheet"] == states[0]["sheet"] and resumed[0]["to_move"] == states[0]["to_move"]
    after = await play(sockets, resumed)
    assert after[0]["version"] == states[0]["version"] + 1
    await close(*sockets)


async def test_it_tells_the_opponent_when_a_player_leaves():
    _, _, sockets, states = await seated_sockets()
    await sockets[1].disconnect()
    state = await state_where(sockets[0], lambda state: not state["players"][1]["connected"])
    assert state["players"][0]["connected"]
    await close(sockets[0])


async def test_it_refuses_a_socket_from_a_foreign_origin():
    code, tokens = await open_seated_table()
    from channels.testing import WebsocketCommunicator
    from hollywood_site.asgi import application
    socket = WebsocketCommunicator(application, f"/ws/api/tables/{code}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await socket.connect()
    assert not connected


async def test_it_closes_the_old_devices_sockets_when_a_seat_is_renewed_and_seats_them_no_more():
    code, tokens = await open_seated_table()
    old_device = await api_socket(code, tokens[0])
    await state_where(old_device, lambda state: state["seat"] == 0)
    _, new_token = await database_sync_to_async(act)(code, LiveTable.renew_secret, tokens[0])
    await hub.hub().send(code, revoked(code, 0))
    while (event := await old_device.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert event["code"] == 4401
    again = await api_socket(code, tokens[0])
    assert (await receive(again))["seat"] is None
    renewed = await api_socket(code, new_token)
    assert (await state_where(renewed, lambda state: True))["seat"] == 0
    await close(again, renewed)


async def test_it_closes_a_socket_for_an_unknown_table():
    from channels.testing import WebsocketCommunicator
    from hollywood_site.asgi import application
    from tests.live.helpers import HOST, ORIGIN
    for path in ("/ws/api/tables/nope/", "/ws/tables/nope/"):
        socket = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
        connected, _ = await socket.connect()
        # Accepted, then closed with 4404: a browser sees the code and stops retrying.
        assert connected
        assert await socket.receive_output() == {"type": "websocket.close", "code": 4404}


async def test_it_renders_the_browser_view_in_the_pages_language():
    code, tokens = await open_seated_table()
    socket = await browser_socket(code, tokens[0], lang="de")
    frame = await receive(socket)
    assert frame["type"] == "state" and 'data-seat="0"' in frame["html"]
    assert 'id="status-line" lang="de"' in frame["html"]
    await socket.disconnect()


async def test_it_deals_the_next_hand_only_when_both_players_pressed_next_hand():
    _, _, sockets, states = await seated_sockets("hollywood")
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    await sockets[0].send_json_to({"type": "next_hand", "version": states[0]["version"]})
    waiting = await state_where(sockets[1], lambda state: state["players"][0]["ready"])
    assert waiting["hand_result"] is not None and waiting["version"] == states[0]["version"]
    await sockets[1].send_json_to({"type": "next_hand", "version": waiting["version"]})
    dealt = await state_at(sockets[0], waiting["version"] + 1)
    assert dealt["hand_result"] is None and len(dealt["hand"]) == 10
    assert not any(player["ready"] for player in dealt["players"])
    await close(*sockets)


async def hand_played_out(scoring="hollywood"):
    code, tokens, sockets, states = await seated_sockets(scoring)
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    return code, sockets, states


async def test_it_deals_the_next_hand_when_both_press_it_from_the_same_showdown_screen():
    _, sockets, states = await hand_played_out()
    showdown = states[0]["version"]
    # Both pages show the showdown at `showdown` and send that version: the second press
    # must count, not come back as stale.
    await sockets[0].send_json_to({"type": "next_hand", "version": showdown})
    await state_where(sockets[1], lambda state: state["players"][0]["ready"])
    await sockets[1].send_json_to({"type": "next_hand", "version": showdown})
    dealt = await state_at(sockets[0], showdown + 1)
    assert dealt["hand_result"] is None and len(dealt["hand"]) == 10
    await close(*sockets)


async def test_it_applies_the_same_move_sent_on_two_sockets_of_one_seat_once():
    code, tokens, sockets, states = await seated_sockets()
    mover, version = states[0]["to_move"], states[0]["version"]
    second_tab = await api_socket(code, tokens[mover])
    await state_where(second_tab, lambda state: True)
    frame = {"type": "move", "move": choose_move(states[mover]), "version": version}
    await asyncio.gather(sockets[mover].send_json_to(frame), second_tab.send_json_to(frame))
    await state_at(sockets[1 - mover], version + 1)
    # One of the two is told it came too late; the move is logged once.
    assert await first_refusal(sockets[mover], second_tab) == "stale"
    assert await move_count(code) == 1
    await close(second_tab, *sockets)


async def test_it_keeps_a_move_whose_player_disconnected_before_the_answer():
    code, tokens, sockets, states = await seated_sockets()
    mover, version = states[0]["to_move"], states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": choose_move(states[mover]), "version": version})
    await sockets[mover].disconnect()
    seen_by_opponent = await state_at(sockets[1 - mover], version + 1)
    back = await api_socket(code, tokens[mover])
    resumed = await state_at(back, version + 1)
    assert resumed["version"] == seen_by_opponent["version"] and await move_count(code) == 1
    await close(back, sockets[1 - mover])


async def test_it_changes_nothing_when_a_player_presses_next_hand_again():
    code, sockets, states = await hand_played_out()
    await sockets[0].send_json_to({"type": "next_hand"})
    await state_where(sockets[1], lambda state: state["players"][0]["ready"])
    for _ in range(5):
        await sockets[0].send_json_to({"type": "next_hand"})
    # Only the first press was a change: the opponent hears of no other, and the game's
    # version never moved.
    assert await sockets[1].receive_nothing(timeout=0.5)
    assert (await table_row(code)).version == states[0]["version"]
    await close(*sockets)


async def test_it_deals_the_next_hand_when_both_press_it_at_the_same_moment():
    _, sockets, states = await hand_played_out()
    showdown = states[0]["version"]
    await asyncio.gather(*(socket.send_json_to({"type": "next_hand"}) for socket in sockets))
    dealt = await state_where(sockets[0], lambda state: state["hand_result"] is None)
    assert dealt["version"] == showdown + 1 and not any(player["ready"] for player in dealt["players"])
    await close(*sockets)


async def test_it_starts_a_rematch_when_both_ask_from_the_same_final_screen():
    _, sockets, states = await hand_played_out("hand")
    over = states[0]["version"]
    for socket in sockets:
        await socket.send_json_to({"type": "rematch", "version": over})
    rematch = await state_where(sockets[0], lambda state: state["match_number"] == 2)
    assert not rematch["match_over"] and rematch["results"] == []
    await close(*sockets)


async def test_it_starts_a_rematch_with_the_same_players_once_both_ask():
    code, _, sockets, states = await seated_sockets("hand")
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    assert states[0]["match_over"]
    states = await both_press(sockets, states, "rematch")
    assert states[0]["match_number"] == 2 and not states[0]["match_over"]
    assert states[0]["results"] == [] and [p["name"] for p in states[0]["players"]] == ["Ana", "Ben"]
    await close(*sockets)


@database_sync_to_async
def archived(match_id):
    from games.archive.models import ArchivedMatch
    return ArchivedMatch.objects.get(public_id=match_id)


async def test_it_archives_a_finished_match_under_the_match_id_the_state_carries():
    _, _, sockets, states = await seated_sockets("hand")
    match_id = states[0]["match_id"]
    assert match_id is not None
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    record = await archived(match_id)
    assert record.status == "finished" and record.winner_seat == states[0]["match_winner"]
    assert record.hand_count == 1
    await close(*sockets)


@database_sync_to_async
def join_by_api(code):
    from django.test import Client
    return Client().post(f"/api/tables/{code}/join", {"name": "Ben"}, content_type="application/json")


async def test_it_tells_the_creator_at_once_when_someone_takes_the_free_seat():
    table, _, token, *_ = await database_sync_to_async(open_table)("Ana")
    socket = await api_socket(table.code, token)
    first = await receive(socket)
    assert first["players"][1] is None
    assert (await join_by_api(table.code)).status_code == 200
    joined = await state_where(socket, lambda state: state["players"][1] is not None)
    assert joined["players"][1]["name"] == "Ben" and joined["to_move"] is not None
    await socket.disconnect()


async def test_it_shows_a_committed_move_to_its_player_when_the_announcement_fails(redis_layer, caplog):
    code, _, sockets, states = await seated_sockets()
    await database_sync_to_async(redis_layer)()
    mover, version = states[0]["to_move"], states[0]["version"]
    await sockets[mover].send_json_to({"type": "move", "move": "pass", "version": version})
    # The move counts and is shown, with no error frame on the way ("the table is unchanged").
    assert (await state_at(sockets[mover], version + 1))["version"] == version + 1
    assert await move_count(code) == 1
    await close(*sockets)  # the consumers have finished, their announcements tried
    assert [record for record in caplog.records if record.name == "games.live.hub"]


async def test_it_beats_the_presence_of_this_processs_sockets_in_one_statement():
    from games.live.owner import beat_this_process
    from games.models import Presence
    code, tokens, sockets, states = await seated_sockets()
    before = await database_sync_to_async(lambda: sorted(Presence.objects.values_list("beat", flat=True)))()
    await database_sync_to_async(beat_this_process)()
    after = await database_sync_to_async(lambda: sorted(Presence.objects.values_list("beat", flat=True)))()
    assert len(after) == 2 and all(new > old for new, old in zip(after, before))
    await close(*sockets)


async def test_it_ends_a_seats_presence_when_its_socket_crashes(monkeypatch):
    from games.live.consumers import TableConsumer

    code, tokens, sockets, states = await seated_sockets()

    async def crash(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug outside any handler")

    monkeypatch.setattr(TableConsumer, "receive", crash)
    await sockets[0].send_to(text_data="{}")
    with pytest.raises(RuntimeError):
        await sockets[0].receive_output(timeout=5)
    # However the socket ended, its seat no longer counts it.
    from games.models import Presence
    counted = await database_sync_to_async(lambda: Presence.objects.get(seat__table__code=code, seat__number=0))()
    assert counted.connections == 0
    state = await state_where(sockets[1], lambda state: not state["players"][0]["connected"])
    assert state["players"][1]["connected"]
    await sockets[1].disconnect()


async def test_it_never_rewrites_the_saved_match_for_a_move_only_at_a_deal():
    code, tokens, sockets, states = await seated_sockets()
    saved = (await table_row(code)).state
    for _ in range(6):
        states = await play(sockets, states)
    # The moves are in the log; the saved match (13 KB by a match's end) stays as it was dealt.
    assert (await table_row(code)).state == saved and await move_count(code) == 6
    await close(*sockets)
