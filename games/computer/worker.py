"""What a process that thinks for the computer (games.live.computer_seat's pool) runs first.

Here, beside the players and away from live play, so that a worker process imports the
engine and the computer only, never Django.
"""

import os
import threading
import time

NICENESS = 10
# How often a worker looks whether the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0


def start_worker():
    """The pool's initializer: a lower priority, and an end with the server."""
    lower_priority()
    leave_with_parent(os.getppid())


def lower_priority():
    """People's tables come first when the CPU is short: the server's process keeps its
    priority, the computer's thinking yields to it."""
    os.nice(NICENESS)


def leave_with_parent(parent):
    """A server killed outright (SIGKILL, out of memory, or stopped by a supervisor that gave
    up waiting) cannot stop its pool, and a worker would wait for decisions that never come,
    for ever: one was found still running twenty minutes after its benchmark's server was
    gone. Each worker ends itself once its parent has gone (an orphan's parent changes)."""

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()
