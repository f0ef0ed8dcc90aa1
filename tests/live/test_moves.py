"""Commands in batches (games.live.batch): one transaction and one commit for the
moves waiting together, and for each move what it would have been alone."""

import asyncio

import pytest
from django.db import OperationalError

from games.errors import GameError
from games.live import batch, store
from games.live.batch import handle_all, send_now
from games.live.commands import Play, Sit
from games.live.opening import open_table
from games.live.owner import LiveTable
from games.live.tables import live_tables
from games.models import Move
from tests.live.helpers import choose_move, open_seated_table

pytestmark = pytest.mark.django_db


def seated_tables(count):
    """`count` tables with both seats taken; their owners in this process."""
    owners = []
    for number in range(count):
        seated = open_table("Ana", deal_seed=f"batch{number}")
        send_now(seated.table.code, Sit("Ben"))
        owners.append(live_tables.owner(seated.table.code))
    return owners


def good_move(owner):
    """(code, Play): a legal move at `owner`'s table, as its mover would send it."""
    snapshot = owner.snapshot
    seat = snapshot.to_move
    return owner.code, Play(seat, choose_move(snapshot.state_for(seat)), snapshot.version)


def logged(owner):
    return Move.objects.filter(table__code=owner.code).count()


def test_a_batch_with_one_illegal_move_still_commits_the_others():
    first, illegal, last = seated_tables(3)
    code, play = good_move(illegal)
    version = play.version
    answers = handle_all([good_move(first), (code, Play(play.seat, "discard ZZ", version)), good_move(last)])
    assert [answer.version for answer in (answers[0], answers[2])] == [first.table.version, last.table.version]
    assert (answers[1].code, answers[1].reason) == ("illegal_move", "unknown_move")
    assert [logged(owner) for owner in (first, illegal, last)] == [1, 0, 1]
    assert illegal.snapshot.version == version and not illegal.in_doubt


def test_a_stale_move_and_an_unknown_table_are_refused_alone_in_their_batch():
    first, stale = seated_tables(2)
    code, play = good_move(stale)
    answers = handle_all([("ZZZZZZ", Play(0, "pass")), (code, Play(play.seat, play.move, play.version - 1)),
                          good_move(first)])
    assert [answer.code for answer in answers[:2]] == ["unknown_table", "stale"]
    assert answers[2].version == first.snapshot.version
    assert [logged(first), logged(stale)] == [1, 0]


def test_nobody_is_told_a_move_of_a_batch_before_the_batch_commits(monkeypatch):
    first, second = seated_tables(2)
    shown = []
    play = LiveTable.apply_move

    def watched(owner, *args, **kwargs):
        shown.append({other.code: other.snapshot.version for other in (first, second)})
        return play(owner, *args, **kwargs)

    monkeypatch.setattr(LiveTable, "apply_move", watched)
    before = {first.code: first.snapshot.version, second.code: second.snapshot.version}
    handle_all([good_move(first), good_move(second)])
    assert shown == [before, before]  # the first move was played, not yet shown, as the second was
    assert first.snapshot.version == before[first.code] + 1 and second.snapshot.version == before[second.code] + 1


def test_a_batch_that_meets_the_database_away_writes_none_of_its_moves_and_shows_none(monkeypatch):
    first, second = seated_tables(2)
    append = store.append_move

    def away_at_the_second(table, *args, **kwargs):
        if table.code == second.code:
            raise OperationalError("the database went away")
        return append(table, *args, **kwargs)

    monkeypatch.setattr(store, "append_move", away_at_the_second)
    versions = [first.snapshot.version, second.snapshot.version]
    with pytest.raises(OperationalError):
        handle_all([good_move(first), good_move(second)])
    assert [logged(first), logged(second)] == [0, 0]
    assert [first.snapshot.version, second.snapshot.version] == versions
    assert first.in_doubt and second.in_doubt  # each reloads before its next change
    monkeypatch.setattr(store, "append_move", append)
    assert handle_all([good_move(first)])[0].version == versions[0] + 1 and logged(first) == 1


def test_a_second_move_of_one_table_goes_after_the_first_has_committed():
    (owner,) = seated_tables(1)
    code, play = good_move(owner)
    version = play.version
    answers = handle_all([(code, play), (code, play)])
    assert answers[0].version == version + 1 and answers[1].code == "stale"  # it saw the first's result
    assert logged(owner) == 1


@pytest.mark.django_db(transaction=True)
async def test_moves_sent_together_go_to_the_database_in_one_batch(monkeypatch):
    tables = [await open_seated_table(seed=f"together{number}") for number in range(4)]
    batches = []

    def counted(waiting):
        batches.append(len(waiting))
        return handle_all(waiting)

    monkeypatch.setattr(batch, "handle_all", counted)
    owners = [live_tables.get(code) for code, _ in tables]
    answers = await asyncio.gather(*(batch.send(*good_move(owner)) for owner in owners))
    assert batches == [4]
    assert [answer.version for answer in answers] == [owner.snapshot.version for owner in owners]


@pytest.mark.django_db(transaction=True)
async def test_a_refused_move_in_a_batch_is_raised_to_its_mover_alone():
    tables = [await open_seated_table(seed=f"alone{number}") for number in range(2)]
    owners = [live_tables.get(code) for code, _ in tables]
    code, play = good_move(owners[1])
    answers = await asyncio.gather(batch.send(*good_move(owners[0])), batch.send(code, Play(play.seat, "discard ZZ", play.version)),
                                   return_exceptions=True)
    assert answers[0].version == owners[0].snapshot.version
    assert isinstance(answers[1], GameError) and answers[1].code == "illegal_move"
