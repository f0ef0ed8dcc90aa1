"""A deal nobody can rig, over the JSON protocol (docs/fairness.md): each commitment shown before
its deal, the seats' contributions, the archive's account checked by docs/verify_deal.py."""

import json
import logging

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.engine import Deal
from games.engine.deal import new_share
from games.live.owner import LiveTable
from games.live.tables import live_tables
from tests.engine.test_verify_deal import verifier
from tests.live.helpers import (
    TIMEOUT, api_socket, browser_socket, both_press, choose_move, close, error_frame, open_seated_table, play,
    seated_sockets, state_at, state_where, table_row,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def hand_played_out(sockets, states):
    while states[0]["hand_result"] is None:
        states = await play(sockets, states)
    return states


async def contributed(sockets, states, shares):
    """Each seat sends its share; both see both contributions in (a new version each)."""
    for seat, share in enumerate(shares):
        version = states[0]["version"]
        await sockets[seat].send_json_to({"type": "contribute", "contribution": share})
        states = [await state_at(socket, version + 1) for socket in sockets]
        assert states[1 - seat]["next_deal"]["contributed"][seat] is True
    return states


@database_sync_to_async
def archive_json(match_id):
    return Client().get(f"/api/matches/{match_id}").json()


async def test_it_plays_a_match_whose_every_hand_the_verifier_checks_from_the_archive(settings, tmp_path, capsys):
    settings.GAMES_WS_RATE_BURST = settings.GAMES_WS_RATE_PER_SECOND = 10_000
    _code, _tokens, sockets, states = await seated_sockets("game", seed=None)
    commitments, shares = [states[0]["deal"]["commitment"]], [None]
    while True:
        states = await hand_played_out(sockets, states)
        if states[0]["match_over"]:
            break
        waiting = states[0]["next_deal"]
        assert waiting["contributed"] == [False, False] and "seed" not in waiting
        commitments.append(waiting["commitment"])  # shown before the deal
        shares.append([new_share(), new_share()])
        states = await contributed(sockets, states, shares[-1])
        states = await both_press(sockets, states, "next_hand")
        assert states[0]["deal"] == {"commitment": commitments[-1]} and states[0]["next_deal"] is None
    hands = (await archive_json(states[0]["match_id"]))["hands"]
    assert len(hands) == len(commitments) > 1
    assert [hand["deal"]["commitment"] for hand in hands] == commitments
    assert hands[0]["deal"]["supplied"] == [True, True]  # dealt when the table opened
    assert all(hand["deal"]["contributions"] == share and hand["deal"]["supplied"] == [False, False]
               for hand, share in zip(hands[1:], shares[1:]))
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"hands": hands}))
    assert verifier().main(str(path)) == 0
    hands[-1]["deal"]["contributions"][0] = new_share()
    path.write_text(json.dumps({"hands": hands}))
    assert verifier().main(str(path)) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"hand {len(hands)}: ")
    await close(*sockets)


async def refusal(socket, frame):
    await socket.send_json_to(frame)
    return (await error_frame(socket))["code"]


async def test_it_refuses_a_late_a_second_and_a_malformed_contribution_and_changes_nothing():
    code, _tokens, sockets, states = await seated_sockets("hollywood", seed=None)
    share = new_share()
    assert await refusal(sockets[0], {"type": "contribute", "contribution": share}) == "contribution_late"
    states = await hand_played_out(sockets, states)
    for malformed in (share.upper(), share[:-2], 42, None, [share]):
        assert await refusal(sockets[0], {"type": "contribute", "contribution": malformed}) == "contribution_malformed"
    states = await contributed(sockets, states, [share, new_share()])
    before = (await table_row(code)).next_deal
    assert await refusal(sockets[0], {"type": "contribute", "contribution": new_share()}) == "contribution_twice"
    states = await both_press(sockets, states, "next_hand")
    assert await refusal(sockets[1], {"type": "contribute", "contribution": new_share()}) == "contribution_late"
    hand = (await database_sync_to_async(LiveTable)(code)).match.hand
    assert hand.deal.contributions[0] == share == before["contributions"][0]
    assert (await table_row(code)).version == states[0]["version"]  # the refusals changed nothing
    await close(*sockets)


async def test_it_refuses_a_contribution_from_a_spectator():
    code, _tokens, sockets, states = await seated_sockets("hollywood", seed=None)
    await hand_played_out(sockets, states)
    spectator = await api_socket(code)
    assert await refusal(spectator, {"type": "contribute", "contribution": new_share()}) == "spectator"
    await close(spectator, *sockets)


async def test_a_resigned_match_leaves_a_committed_deal_waiting_for_the_rematch():
    _code, _tokens, sockets, states = await seated_sockets("hollywood", seed=None)
    version = states[0]["version"]
    await sockets[0].send_json_to({"type": "resign"})
    states = [await state_at(socket, version + 1) for socket in sockets]
    waiting = states[1]["next_deal"]["commitment"]
    assert states[1]["match_over"] and states[1]["deal"] == {"commitment": states[1]["deal"]["commitment"]}
    share = new_share()
    states = await contributed(sockets, states, [share, new_share()])
    states = await both_press(sockets, states, "rematch")
    assert states[0]["match_number"] == 2 and states[0]["deal"] == {"commitment": waiting}
    await close(*sockets)


async def test_a_restarted_server_deals_the_cards_it_committed_to():
    code, tokens, sockets, states = await seated_sockets("hollywood", seed=None)
    states = await hand_played_out(sockets, states)
    commitment = states[0]["next_deal"]["commitment"]
    await close(*sockets)
    live_tables.clear()  # what a restarted process would have in memory
    sockets = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, lambda state: state["next_deal"] is not None) for socket in sockets]
    assert states[0]["next_deal"]["commitment"] == commitment
    states = await both_press(sockets, states, "next_hand")
    hand = (await database_sync_to_async(LiveTable)(code)).match.hand
    assert hand.deal.commitment == commitment and hand.deal.supplied == (True, True)
    assert [card.code() for card in hand.deck] == [card.code() for card in Deal(hand.deal.seed, hand.deal.contributions).deck()]
    await close(*sockets)


async def test_the_computers_seat_contributes_and_the_server_supplies_the_silent_players_share(settings):
    settings.GAMES_WS_RATE_BURST = settings.GAMES_WS_RATE_PER_SECOND = 10_000
    seated = await database_sync_to_async(open_computer_table)()
    socket = await api_socket(seated.table.code, seated.token)
    state = await state_where(socket, lambda state: state["players"][1] is not None)
    while state["hand_result"] is None or not state["next_deal"]["contributed"][1]:
        if state["to_move"] == 0 and state["legal_moves"]:
            await socket.send_json_to({"type": "move", "move": choose_move(state), "version": state["version"]})
        state = await state_where(socket, lambda new: new["version"] > state["version"], timeout=TIMEOUT * 4)
    await socket.send_json_to({"type": "next_hand"})
    dealt = await state_where(socket, lambda new: new["hand_number"] == 2, timeout=TIMEOUT * 4)
    hand = (await database_sync_to_async(LiveTable)(seated.table.code)).match.hand
    assert dealt["deal"]["commitment"] == hand.deal.commitment and hand.deal.supplied == (True, False)
    await close(socket)


def open_computer_table():
    from games.live.opening import open_table
    return open_table("Ana", computer="beginner")


def seeds_shown_too_soon(text, frame, seeds):
    """The hands (from 1) whose seed `text` shows before that hand is over, as `frame` tells."""
    number, over = frame.get("hand_number"), frame.get("hand_result") is not None
    return [hand for hand, seed in enumerate(seeds, 1) if seed in text and (number is None or number < hand or
                                                                            (number == hand and not over))]


async def test_no_seed_of_a_hand_in_play_reaches_a_frame_a_page_an_answer_or_a_log(settings, caplog):
    settings.GAMES_WS_RATE_BURST = settings.GAMES_WS_RATE_PER_SECOND = 10_000
    caplog.set_level(logging.DEBUG)
    code, tokens = await open_seated_table("game", seed=None)
    sockets = [await api_socket(code, tokens[0]), await api_socket(code, tokens[1])]
    watchers = [await api_socket(code), await browser_socket(code, tokens[0]), await browser_socket(code)]
    texts, pages = [], []
    states = [await state_where(socket, lambda state: all(state["players"])) for socket in sockets]
    while not states[0]["match_over"]:
        states = await hand_played_out(sockets, states)
        pages.append((await page_texts(code, tokens[0]), len(states[0]["results"])))
        if not states[0]["match_over"]:
            states = await both_press(sockets, states, "next_hand")
            pages.append((await page_texts(code, tokens[1]), len(states[0]["results"])))
    for socket in sockets + watchers:
        while not await socket.receive_nothing(timeout=0.2):
            text = await socket.receive_from()
            texts.append((text, json.loads(text)))
    seeds = [hand.deal.seed for hand in (await database_sync_to_async(LiveTable)(code)).match.hands]
    assert len(seeds) > 1 and all(seeds)
    versions = {}
    for text, frame in texts:
        if frame.get("type") == "state" and "hand_number" in frame:
            versions[frame["version"]] = frame
    for text, frame in texts:
        shown = frame if "hand_number" in frame else versions.get(frame.get("version"), {})
        assert not seeds_shown_too_soon(text, shown, seeds), frame.get("type")
    for page, finished in pages:  # the seeds of the hands not finished then: the one in play, the next
        assert not any(seed in page for seed in seeds[finished:])
        assert any(seed in page for seed in seeds[:finished]) == (finished > 0 and "showdown" in page)
    assert not any(seed in record.getMessage() for record in caplog.records for seed in seeds)
    await close(*sockets, *watchers)


@database_sync_to_async
def page_texts(code, token):
    """The table's page for a seat, as the database has it now."""
    client = Client()
    client.cookies[f"seat_{code}"] = token
    return client.get(f"/en/t/{code}/").content.decode()
