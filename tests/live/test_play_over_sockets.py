"""A whole match over the JSON socket, through the real ASGI stack: hands, the sheet, Next hand, rematches, a restart."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.live.owner import LiveTable
from games.live.tables import live_tables
from games.engine import HOLLYWOOD
from tests.live.helpers import (
    api_socket, both_connected, both_press, close, move_count, next_hand, play, seated_sockets, state_at,
    state_where, table_row,
)

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def archived(match_id):
    from games.archive.models import ArchivedMatch
    return ArchivedMatch.objects.get(public_id=match_id)


async def hand_played_out(scoring="hollywood"):
    code, tokens, sockets, states = await seated_sockets(scoring)
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    return code, sockets, states


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


async def test_it_never_rewrites_the_saved_match_for_a_move_only_at_a_deal():
    code, tokens, sockets, states = await seated_sockets()
    saved = (await table_row(code)).state
    for _ in range(6):
        states = await play(sockets, states)
    # The moves are in the log; the saved match (13 KB by a match's end) stays as it was dealt.
    assert (await table_row(code)).state == saved and await move_count(code) == 6
    await close(*sockets)
