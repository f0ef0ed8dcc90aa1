"""Matches played by the computer levels, for the computer's tests."""

import random

from games.engine import Match, Options


def play_match(levels, seed, scoring="game", target=20, straight=False, oklahoma=False, on_move=None, budget_ms=None):
    """A whole match between two levels (seat 0's, seat 1's), seeded, each thinking `budget_ms`
    (None: the default); returns its moves.

    ``on_move(view, move)`` sees each view and the move chosen for it.
    """
    from games.computer import choose_move

    match = Match(Options(straight=straight, oklahoma=oklahoma), scoring=scoring, target=target, first_dealer=seed % 2, rng=random.Random(seed))
    rngs = [random.Random(seed * 2 + seat) for seat in (0, 1)]
    moves = []
    while True:
        while match.hand.result is None:
            seat = match.hand.to_move
            view = match.view(seat)
            move = choose_move(view, levels[seat], rngs[seat], budget_ms)
            if on_move:
                on_move(view, move)
            moves.append(move)
            match.play(move)
        if match.is_over:
            return moves
        match.next_hand()
