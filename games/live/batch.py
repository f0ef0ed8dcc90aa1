"""The one way into a live table: every command — a person's frame, the computer's move, the
clock's, a page's request — is sent here, applied by the table's owner (LiveTable.handle),
committed, and only then published.

On the event loop (`send`), the commands of all this process's tables are played in batches:
one trip to the database thread and one commit for every command waiting then, whatever its
table (group commit). A command's own writes are short; its trip to the database thread and
back (games.live.database) and its commit cost more than the writes. While one batch is in
the database thread the next commands wait; then they all go at once. A command at a quiet
process goes alone and at once.

In the database thread a batch is one transaction (`handle_all`): each command is applied by
its table's owner, the owners' locks held until the commit; then each owner publishes its
snapshot, and the events are published to the sockets. A command is refused before it
writes, or by its first statement's compare-and-swap, which writes nothing
(games.live.store): no command needs a savepoint of its own, save those that write after a
check (a timed table's clock, a press of "Next hand"), which take one. So, as for one alone:

- a change is told to nobody before it has committed;
- a refused command (illegal, stale, out of turn, an unknown table) is that command's answer
  alone: it changed nothing, and the others commit;
- any other failure (the database away, a bug) rolls the whole batch back: every command in
  it is answered with that error, and each owner that had applied one reloads before its next
  change, as after one failed command.

Outside the event loop (a view, the cleanup), `send_now` applies one command at once.
"""

import asyncio
from contextlib import ExitStack

from asgiref.sync import async_to_sync
from django.db import transaction

from games.errors import GameError
from games.live import hub
from games.live.database import database_sync_to_async
from games.live.tables import live_tables


def handle_all(commands):
    """In the database thread: [(code, command)] → for each, its Progress or the GameError
    that refused it; raises when a batch failed (nothing of it committed)."""
    answers = []
    while len(answers) < len(commands):
        answers += handle_some(commands[len(answers):])
    return answers


def handle_some(commands):
    """The first commands of `commands` in one transaction: as many as can go together. A
    table takes one command a batch (a second one waits for the next), and an owner whose lock
    another thread holds (a page's request) ends the batch before it, unless it is the first:
    waiting for it while holding the others' locks could deadlock."""
    answers, changed, codes = [], [], set()
    with ExitStack() as held:
        try:
            with transaction.atomic():
                for code, command in commands:
                    if code in codes:
                        break
                    try:
                        table = live_tables.owner(code)
                    except GameError as refusal:
                        answers.append(refusal)
                        continue
                    if not table.lock.acquire(blocking=not codes):
                        break
                    held.callback(table.lock.release)
                    codes.add(code)
                    table.publish_later = True
                    held.callback(setattr, table, "publish_later", False)
                    try:
                        answers.append(table.handle(command))
                    except GameError as refusal:
                        answers.append(refusal)
                    else:
                        changed.append(table)
        except BaseException:
            for table in changed:
                table.in_doubt = True  # its match in memory holds a change the database lacks
            raise
        try:
            for table in changed:
                table.publish(told=True)  # committed: now its readers may see it
        except BaseException:
            for table in changed:
                table.in_doubt = True  # not shown yet: reloaded before its next change
            raise
    return answers


class Batches:
    """One event loop's queue of commands for the database thread."""

    def __init__(self):
        self.waiting = []  # ((code, command), the future its sender awaits)
        self.runner = None

    async def handle(self, code, command):
        """The Progress of the command once committed; its refusal or the batch's error raised."""
        answer = asyncio.get_running_loop().create_future()
        self.waiting.append(((code, command), answer))
        if self.runner is None:
            self.runner = asyncio.ensure_future(self.run())
        return await answer

    async def run(self):
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                try:
                    answers = await database_sync_to_async(handle_all)([command for command, _ in batch])
                except asyncio.CancelledError:
                    for _, answer in batch:
                        answer.cancel()
                    raise
                except Exception as error:  # the whole batch was rolled back
                    answers = [error] * len(batch)
                for (_, answer), result in zip(batch, answers):
                    if answer.done():
                        continue  # its sender went away meanwhile: the change stands all the same
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


async def send(code, command):
    """`command` to table `code`, from the event loop: its Progress once committed and
    published; its refusal (GameError) or the database's error raised."""
    progress = await batches().handle(code, command)
    await hub.publish(progress)
    return progress


def send_now(code, command):
    """`command` to table `code`, from a thread that may use the database (a view, the
    cleanup): applied at once, then published on the server's event loop."""
    progress = live_tables.owner(code).handle(command)
    async_to_sync(hub.publish)(progress)
    return progress
