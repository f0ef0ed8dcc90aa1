"""The computer player: standard library and the engine only, no I/O, no user-facing text.

``choose_move(view, level, rng)`` reads nothing but ``view`` (a ``Match.view(seat)`` for the
seat to move) and answers one of its legal moves. The same view, level and rng state give the
same move.
"""

import random

from .players import DEFAULT_BUDGET_MS, LEVELS as _PLAYERS

#: The level codes, weakest first.
LEVELS = tuple(_PLAYERS)


def choose_move(view, level, rng, budget_ms=None):
    """One of ``view["hand_view"]["legal_moves"]``, chosen by the player of ``level``.

    ``budget_ms`` is how long the level may think, in milliseconds of this machine's one core
    (None: the level's default, ``DEFAULT_BUDGET_MS``). It sets how much the level searches,
    not a clock, so the same arguments still give the same move.
    """
    legal = view["hand_view"]["legal_moves"]
    if not legal:
        raise ValueError("no move to choose: it is not this seat's turn")
    move = _PLAYERS[level](view, rng, DEFAULT_BUDGET_MS if budget_ms is None else budget_ms)
    if move not in legal:
        raise AssertionError(f"the {level} player chose an illegal move: {move!r}")
    return move


def choose_move_seeded(view, level, seed, budget_ms=None):
    """``choose_move`` with a ``random.Random(seed)`` made here: what a worker process is sent,
    a few bytes, instead of a pickled generator's whole state.

    """
    return choose_move(view, level, random.Random(seed), budget_ms)


__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "choose_move", "choose_move_seeded"]
