"""What a page's socket sends on a change: the fragments of the table that changed since its
last frame (games.live.render.LiveView), the whole table when it has shown nothing yet."""

import pytest
from django.utils import translation

from games.live import render
from games.live.batch import send_now
from games.live.commands import Play, PressNextHand, Sit
from games.live.opening import open_table
from games.live.tables import live_tables
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
    states = await play(players, states)  # the hand's first move
    first = await state_at(pages[0], states[0]["version"])
    assert not first["whole"] and 'id="hand-moves"' in first["html"]  # its log, there from the deal, fills
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
    send_now(code, Sit("Ben")).answer
    views = []
    for _ in range(moves):
        snapshot = live_tables.get(code).snapshot
        views.append({seat: render.LiveView(snapshot.state_for(seat)) for seat in (0, 1, None)})
        state = snapshot.state_for(0)
        if state["match_over"]:
            break
        if state["hand_result"] is not None:
            for seat in (0, 1):
                send_now(code, PressNextHand(seat))
        else:
            send_now(code, Play(state["to_move"], choose_move(snapshot.state_for(state["to_move"]))))
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
        in_a_region = {fragment for fragments in render.REGIONS.values() for fragment in fragments}
        for before, after in ((before[0], after[0]) for before, after in zip(views, views[1:])):
            frame = after.frame(before.keys)
            if frame is None:  # a fragment came or went outside the regions: the whole table goes instead
                assert (before.keys.keys() ^ after.keys.keys()) - in_a_region
                continue
            sent += 1
            regions = [region for region in render.REGIONS if f'id="{region}"' in frame]
            for fragment in after.contexts:
                if any(fragment in render.REGIONS[region] for region in regions):
                    assert after.html(fragment) in frame, fragment  # its region goes whole
                else:
                    changed = before.keys[fragment] != after.keys[fragment]
                    assert (after.piece(fragment, before.keys[fragment]) in frame) == changed, fragment
        assert sent == len(views) - 1  # every change of these hands is sent as fragments and regions


@pytest.mark.django_db
def test_a_showdown_and_the_next_deal_send_the_hands_end_and_the_controls_not_the_whole_table():
    with translation.override("en"):
        views = [view[0] for view in played_views("frames-2", moves=60)]
    ends = [(before, after) for before, after in zip(views, views[1:])
            if ("showdown" in before.keys) != ("showdown" in after.keys)]
    assert len(ends) >= 2
    for before, after in ends:
        frame = after.frame(before.keys)
        assert frame is not None and len(frame) < len(after.whole())  # not the whole table again
        assert 'id="hand-end-slot"' in frame and 'id="controls"' in frame
        showdown = "showdown" in after.keys  # the hand's end came (my hand goes), or the next deal
        assert ('id="showdown"' in frame) == showdown and ('id="hand-cards"' in frame) != showdown


@pytest.mark.django_db
def test_the_turn_passing_marks_the_felt_and_leaves_the_players_alone():
    """Whose turn it is is the felt's to say (table.css draws the mark): the players' lines
    do not change, and are not sent, only because the turn passed."""
    code = open_table("Ana", deal_seed="frames-turn").table.code
    send_now(code, Sit("Ben")).answer
    with translation.override("en"):
        first = live_tables.get(code).snapshot.state_for(0)["to_move"]
        send_now(code, Play(first, "pass"))  # the hand's log comes: a whole frame
        before = render.LiveView(live_tables.get(code).snapshot.state_for(first))
        send_now(code, Play(1 - first, "pass"))  # the upcard refused again: no card moved
        after = render.LiveView(live_tables.get(code).snapshot.state_for(first))
    assert f'data-to-move="{1 - first}"' in before.felt and f'data-to-move="{first}"' in after.felt
    frame = after.frame(before.keys)
    assert 'id="players"' not in frame and 'id="my-seat"' not in frame and 'id="table-news"' in frame
    # Nor does my seat's line change when I draw: it does not show how many cards I hold.
    with translation.override("en"):
        send_now(code, Play(first, "stock"))
        drawn = render.LiveView(live_tables.get(code).snapshot.state_for(first))
    frame = drawn.frame(after.keys)
    assert 'id="hand-cards"' in frame and 'id="my-seat"' not in frame


@pytest.mark.django_db
@pytest.mark.parametrize("fragment, item", [("hand-moves", "<li>"), ("log-pile", "data-card=")])
def test_a_frame_carries_only_the_new_lines_and_discards_to_a_page_that_shows_the_earlier_ones(fragment, item):
    with translation.override("en"):
        views = [view[0] for view in played_views("frames-3", moves=40)]
    grown = 0
    for before, after in zip(views, views[1:]):
        shown, now = before.keys.get(fragment), after.keys.get(fragment)
        if shown is None or now is None or not 0 < shown[1] < now[1]:
            continue  # a page that shows none of them gets the fragment whole
        piece, items = after.piece(fragment, shown), after.contexts[fragment][1][render.GROWING[fragment]]
        # Only the items the page lacks, after those it has, and none of those it has.
        assert f'data-append="{shown[1]}"' in piece and piece.count(item) == len(items) - shown[1]
        grown += 1
    assert grown > 10


@pytest.mark.django_db
def test_a_card_taken_from_the_pile_sends_the_logs_pile_whole():
    code = open_table("Ana", deal_seed="frames-4").table.code
    send_now(code, Sit("Ben")).answer
    with translation.override("en"):
        first = live_tables.get(code).snapshot.state_for(0)["to_move"]
        send_now(code, Play(first, "pass"))
        before = render.LiveView(live_tables.get(code).snapshot.state_for(0))
        send_now(code, Play(1 - first, "pile"))  # the upcard, the pile's one card
        after = render.LiveView(live_tables.get(code).snapshot.state_for(0))
    assert before.keys["log-pile"][1] == 1 and after.keys["log-pile"][1] == 0
    piece = after.piece("log-pile", before.keys["log-pile"])
    assert "data-append" not in piece and "data-card=" not in piece


@pytest.mark.django_db
def test_a_page_showing_another_hands_moves_gets_this_hands_moves_whole():
    with translation.override("en"):
        views = played_views("frames-3", moves=120)
    hands = [view[0] for view in views if view[0].keys.get("hand-moves", (None, 0))[1] > 0]
    first = hands[0].keys["hand-moves"]
    later = next(view for view in hands if view.keys["hand-moves"][1] > first[1]
                 and view.contexts["hand-moves"][1]["moves"][:first[1]] != hands[0].contexts["hand-moves"][1]["moves"])
    piece = later.piece("hand-moves", first)
    assert "data-append" not in piece and piece.count("<li>") == later.keys["hand-moves"][1]


@pytest.mark.parametrize("fragment", ["players", "my_hand", "stock", "table"])
def test_the_live_tables_templates_are_read_without_their_indentation(fragment):
    """Every frame carries some of them to every page at the table; the indentation would be
    bytes a page collapses to one space anyway (games/live/templates_loader.py)."""
    from django.template.loader import get_template
    source = get_template(f"games/live/{fragment}.html").template.source
    assert "\n " not in source and "\n\t" not in source
