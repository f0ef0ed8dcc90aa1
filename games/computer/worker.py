"""What a process that thinks for the computer (games.live.computer_seat's pool) runs first.

Here, beside the players and away from live play, so that a worker process imports the
engine and the computer only, never Django.
"""

import os

NICENESS = 10


def lower_priority():
    """People's tables come first when the CPU is short: the server's process keeps its
    priority, the computer's thinking yields to it."""
    os.nice(NICENESS)
