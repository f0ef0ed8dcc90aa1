"""Two processes at one table, each with its own owner: what one commits, the other shows
under the right version, however the commits fall between its reads."""

import pytest

from games.live import store
from games.live.batch import send_now
from games.live.commands import Play, PressNextHand
from games.live.owner import LiveTable
from games.live.tables import live_tables
from tests.live.helpers import choose_move, open_seated_table

pytestmark = pytest.mark.django_db(transaction=True)


def seated(scoring="hand"):
    from asgiref.sync import async_to_sync
    return async_to_sync(open_seated_table)(scoring)


def commit_after_the_row_is_read(monkeypatch, other):
    """The other process commits its move just after this one read the table's row (the
    version it will label its snapshot with), before it reads the move log."""
    read_row = store.table_row
    pending = [True]

    def row_then_a_move(code):
        row = read_row(code)
        if pending:
            pending.clear()
            state = other.snapshot.state_for(other.snapshot.to_move)
            other.handle(Play(state["seat"], choose_move(state), state["version"]))
        return row
    monkeypatch.setattr(store, "table_row", row_then_a_move)


def moves_shown(snapshot):
    return len(snapshot.states[None]["history"])


def test_it_labels_a_caught_up_snapshot_with_the_moves_it_replayed(monkeypatch):
    code, _ = seated()
    here = live_tables.owner(code)
    there = LiveTable(code)  # the other process's owner of the same table
    first = there.snapshot
    there.handle(Play(first.to_move, choose_move(first.state_for(first.to_move)), first.version))
    commit_after_the_row_is_read(monkeypatch, there)
    shown = here.catch_up(first.version + 1)
    # Version first + 1 is the hand's first move, not its first two.
    assert (shown.version, moves_shown(shown)) == (first.version + 1, moves_shown(first) + 1)
    assert there.snapshot.version == first.version + 2


def test_it_builds_an_owner_whose_label_matches_its_moves(monkeypatch):
    code, _ = seated()
    there = LiveTable(code)
    before = there.snapshot
    commit_after_the_row_is_read(monkeypatch, there)
    built = LiveTable(code)  # a process that had no owner yet reads the table
    assert (built.snapshot.version, moves_shown(built.snapshot)) == (before.version, moves_shown(before))


def test_it_accepts_a_move_chosen_at_a_version_this_process_had_not_seen_yet():
    code, _ = seated()
    here = live_tables.owner(code)
    there = LiveTable(code)
    first = there.snapshot
    there.handle(Play(first.to_move, choose_move(first.state_for(first.to_move)), first.version))
    after = LiveTable(code).snapshot  # what the player was shown by the other process
    mover = after.to_move
    change = send_now(code, Play(mover, choose_move(after.state_for(mover)), after.version))
    assert change.version == after.version + 1 and here.snapshot.version == after.version + 1


def test_it_counts_a_next_hand_press_made_on_a_process_that_had_not_seen_the_showdown():
    code, _ = seated("hollywood")
    here = live_tables.owner(code)
    there = LiveTable(code)
    state = there.snapshot
    while state.states[None]["hand_result"] is None:  # the other process plays the hand out
        mover = state.to_move
        there.handle(Play(mover, choose_move(state.state_for(mover)), state.version))
        state = there.snapshot
    there.handle(PressNextHand(0))
    # This process is behind by the whole hand; seat 1's press must count, not be refused.
    progress = here.handle(PressNextHand(1))
    assert [event["type"] for event in progress.events] == ["table.changed"]
    assert here.snapshot.states[None]["hand_number"] == 2
