"""Memory given back once a crowd of sockets has left a process (games.live.memory)."""

import gc
import weakref

from games.live.memory import CROWD, Crowd, give_back


def crowd_of(size):
    given, scheduled = [], []
    crowd = Crowd(give_back=lambda: given.append(crowd.open), later=lambda _seconds, callback: scheduled.append(callback))
    for _ in range(size):
        crowd.joined()
    return crowd, given, scheduled


def test_it_gives_memory_back_once_for_a_crowd_that_leaves_together():
    crowd, given, scheduled = crowd_of(1000)
    for _ in range(900):
        crowd.left()
    assert len(scheduled) == 1  # once, for all who left together
    scheduled.pop()()
    assert given == [100]
    for _ in range(60):
        crowd.left()  # a small crowd's leaving since: not worth a collection
    assert scheduled == []


def test_it_leaves_memory_alone_while_fewer_than_a_crowd_come_and_go():
    crowd, given, scheduled = crowd_of(CROWD - 1)
    for _ in range(CROWD - 1):
        crowd.left()
    assert scheduled == [] and given == []


class Cycle:
    def __init__(self):
        self.me = self


def test_giving_back_frees_what_only_the_oldest_generations_collection_would():
    cycle = Cycle()
    probe = weakref.ref(cycle)
    gc.collect()  # promoted to the oldest generation, as a socket that stayed a while
    del cycle
    assert probe() is not None  # a cycle: counting references alone never frees it
    give_back()
    assert probe() is None
