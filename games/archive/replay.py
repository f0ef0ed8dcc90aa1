"""A stored hand replayed move by move, seen from one seat (server-side, no JS)."""

from games.archive.engine_bridge import replayed_hand


def replay_view(archived, hand, step, seat):
    """What `seat` saw after `step` moves of `hand`, with the links' neighbouring steps."""
    steps = len(hand.moves)
    step = min(max(step, 0), steps)
    view = replayed_hand(archived, hand, step).view(seat)
    history = view["history"]
    return {
        "hand": hand,
        "seat": seat,
        "step": step,
        "steps": steps,
        "view": view,
        "last": {"seat": history[-1][0], "move": history[-1][1]} if history else None,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < steps else None,
    }
