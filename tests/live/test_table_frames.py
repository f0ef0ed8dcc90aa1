"""What a page's socket sends on a change: the fragments of the table that changed since its
last frame (games.live.render.LiveView), the whole table when it has shown nothing yet."""

import pytest
from django.utils import translation

from games.live import render
from games.live.owner import LiveTable, act, live_tables, open_table
from tests.live.helpers import (
    api_socket, both_connected, browser_socket, choose_move, close, open_seated_table, play, state_at, state_where,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_page_opens_on_the_whole_table():
    code, tokens = await open_seated_table()
    page = await browser_socket(code, tokens[0])
    frame = await state_where(page, lambda frame: True)
    assert frame["whole"] and 'id="felt"' in frame["html"] and 'id="score-sheet"' in frame["html"]
    assert 'id="my-hand"' in frame["html"]
    await page.disconnect()


async def test_a_moves_frame_to_the_opponent_is_under_4_kb_and_leaves_the_sheet_and_the_rules_alone():
    code, tokens = await open_seated_table()
    players = [await api_socket(code, token) for token in tokens]
    states = [await state_where(socket, both_connected) for socket in players]
    pages = [await browser_socket(code, token) for token in tokens]
    for page in pages:
        await state_at(page, states[0]["version"])
    states = await play(players, states)  # the hand's first move: its log comes, the whole table with it
    mover = states[0]["to_move"]
    states = await play(players, states)
    frame = await state_at(pages[1 - mover], states[0]["version"])
    assert not frame["whole"] and len(frame["html"].encode()) < 4000
    assert 'id="score-sheet"' not in frame["html"] and 'id="table-rules"' not in frame["html"]
    # What did change is there: the move's line, and now the opponent's turn.
    assert 'id="table-news"' in frame["html"] and 'data-my-turn="true"' in frame["html"]
    await close(*players, *pages)


async def test_a_page_that_reconnects_gets_the_whole_table():
    code, tokens = await open_seated_table()
    page = await browser_socket(code, tokens[0])
    await state_where(page, lambda frame: True)
    await page.disconnect()
    again = await browser_socket(code, tokens[0])
    frame = await state_where(again, lambda frame: True)
    assert frame["whole"] and 'id="score-sheet"' in frame["html"]
    await again.disconnect()


def played_views(seed, moves=120):
    """Each seat's and a spectator's view of a table, state after state, through its first
    hands (the showdowns and a new deal included)."""
    ana = open_table("Ana", deal_seed=seed)
    code = ana.table.code
    act(code, LiveTable.take_seat, "Ben")
    views = []
    for _ in range(moves):
        snapshot = live_tables.get(code).snapshot
        views.append({seat: render.LiveView(snapshot.state_for(seat)) for seat in (0, 1, None)})
        state = snapshot.state_for(0)
        if state["match_over"]:
            break
        if state["hand_result"] is not None:
            for seat in (0, 1):
                act(code, LiveTable.press_next_hand, seat)
        else:
            act(code, LiveTable.play, state["to_move"], choose_move(snapshot.state_for(state["to_move"])))
    return views


@pytest.mark.django_db
def test_no_fragment_looks_different_while_its_key_stays_the_same():
    """The keys decide what a frame leaves out: a fragment whose key did not change must
    render as it did, or a page would keep showing what is no longer so."""
    with translation.override("en"):
        views = played_views("frames")
        for before, after in zip(views, views[1:]):
            for seat in (0, 1, None):
                for fragment, key in after[seat].keys.items():
                    if fragment != "felt" and before[seat].keys.get(fragment) == key:
                        render.RENDERED.clear()
                        assert before[seat].html(fragment) == after[seat].html(fragment), fragment


@pytest.mark.django_db
def test_a_frame_carries_every_fragment_that_changed_and_only_those():
    with translation.override("en"):
        views = played_views("frames-2", moves=60)
        sent = 0
        for before, after in zip(views, views[1:]):
            frame = after[0].frame(before[0].keys)
            if frame is None:  # a fragment came or went: the whole table goes instead
                assert before[0].keys.keys() != after[0].keys.keys()
                continue
            sent += 1
            for fragment in after[0].contexts:
                changed = before[0].keys[fragment] != after[0].keys[fragment]
                assert (after[0].html(fragment) in frame) == changed, fragment
        assert sent > len(views) // 2  # most changes are sent as fragments
