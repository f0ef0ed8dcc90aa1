"""The sockets' moves, played in batches: one trip to the database thread and one commit for
every move waiting then, whatever its table (group commit).

A move's own writes are short; its trip to the database thread and back (games.live.database)
and its commit cost more than the writes. So the event loop queues the moves of all its
tables, and while one batch is in the database thread the next moves wait; then they all go
at once. A move at a quiet process goes alone and at once, as before.

In the database thread a batch is one transaction (games.live.owner.play_moves): each move is
played by its table's owner (LiveTable.play), the owners' locks held until the commit; then
each owner publishes and each mover is answered. A move is refused before it writes, or by
its first statement's compare-and-swap, which writes nothing (games.live.store): no move
needs a savepoint of its own, save a timed table's, whose clock is written after it.
So, as for one move alone:

- a move is told to nobody before it has committed;
- a refused move (illegal, stale, out of turn, an unknown table) is that move's answer alone:
  it changed nothing, and the others commit;
- any other failure (the database away, a bug) rolls the whole batch back: every move in it
  is answered with that error, and each owner that had played one reloads before its next
  change, as after one failed move.
"""

import asyncio

from games.live.database import database_sync_to_async
from games.live.owner import play_moves


class Batches:
    """One event loop's queue of moves for the database thread."""

    def __init__(self):
        self.waiting = []  # ((code, seat, move, version), the future its mover awaits)
        self.runner = None

    async def play(self, code, seat, move, version):
        """The Change of the move once committed; its refusal or the batch's error raised."""
        answer = asyncio.get_running_loop().create_future()
        self.waiting.append(((code, seat, move, version), answer))
        if self.runner is None:
            self.runner = asyncio.ensure_future(self.run())
        return await answer

    async def run(self):
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                try:
                    answers = await database_sync_to_async(play_moves)([move for move, _ in batch])
                except asyncio.CancelledError:
                    for _, answer in batch:
                        answer.cancel()
                    raise
                except Exception as error:  # the whole batch was rolled back
                    answers = [error] * len(batch)
                for (_, answer), result in zip(batch, answers):
                    if answer.done():
                        continue  # its socket went away meanwhile: the move stands all the same
                    if isinstance(result, Exception):
                        answer.set_exception(result)
                    else:
                        answer.set_result(result)
        finally:
            self.runner = None


_batches = {}


def batches():
    """The running event loop's batches (tests run several loops)."""
    key = id(asyncio.get_running_loop())
    if key not in _batches:
        _batches.clear()  # a previous loop's queue has no loop to run on any more
        _batches[key] = Batches()
    return _batches[key]


async def play(code, seat, move, version):
    """A socket's move: its Change once committed (for the hub to tell)."""
    return await batches().play(code, seat, move, version)
