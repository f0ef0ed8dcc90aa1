"""A stored hand replayed move by move, seen from one seat (server-side, no JS)."""

from games.engine import Hand, scoring_mode


def replayed_hand(archived, hand, step):
    """The stored hand re-dealt from its deck and played up to `step` moves."""
    options = scoring_mode(archived.scoring).options(archived.straight, archived.oklahoma)
    saved = {"dealer": hand.dealer, "deck": hand.deck, "moves": hand.moves[:step], "reshuffles": hand.reshuffles}
    return Hand.from_dict(options, saved)


def replay_view(archived, hand, step, seat):
    """What `seat` saw after `step` moves of `hand`, with the links' neighbouring steps."""
    steps = len(hand.moves)
    step = min(max(step, 0), steps)
    replayed = replayed_hand(archived, hand, step)
    view = replayed.view(seat)
    history = view["history"]
    return {
        "hand": hand,
        "seat": seat,
        "step": step,
        "steps": steps,
        "view": view,
        # The other seat's cards too: a stored hand is over, and both hands teach.
        "other": replayed.seat_view(1 - seat),
        "last": {"seat": history[-1][0], "move": history[-1][1], "by_clock": step - 1 in hand.by_clock}
        if history else None,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < steps else None,
    }
