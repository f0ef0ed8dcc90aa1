"""What a client sends, read once: a JSON object, or a refusal (GameError) that names why;
for a socket's frame, the command it sends (games.live.commands).

One parser for the JSON API's request bodies and the sockets' frames, so that both refuse
the same things the same way.
"""

import json

from games.errors import GameError
from games.live.chat import clean_line
from games.live.commands import Claim, Play, PressNextHand, PressRematch, Resign, Say


def json_object(text, refusal="malformed"):
    """The JSON object in `text` (str or bytes), else GameError(`refusal`)."""
    try:
        value = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: brackets nested too deep
        raise GameError(refusal) from None
    if not isinstance(value, dict):
        raise GameError(refusal)
    return value


def frame_type(frame):
    """A frame's "type" when it is a string (a list or dict there would make a lookup raise)."""
    kind = frame.get("type")
    return kind if isinstance(kind, str) else None


def expected_version(frame):
    """The version a move was chosen at, if it says: an int, never a bool."""
    version = frame.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise GameError("malformed")
    return version


def play(frame, seat):
    move = frame.get("move")
    if not isinstance(move, str):
        raise GameError("malformed")
    return Play(seat, move, expected_version(frame))


# A client's frame → the command it sends ("next_hand" and "rematch" ignore any version:
# readiness is idempotent). The one table of what a socket may ask of a table.
COMMANDS = {
    "move": play,
    "next_hand": lambda frame, seat: PressNextHand(seat),
    "rematch": lambda frame, seat: PressRematch(seat),
    "resign": lambda frame, seat: Resign(seat),
    "claim": lambda frame, seat: Claim(seat),
    "chat": lambda frame, seat: Say(seat, clean_line(frame.get("text"))),
}


def command_for(frame, seat):
    """The command `frame` sends for `seat`, else GameError (spectators only watch)."""
    make = COMMANDS.get(frame_type(frame))
    if make is None:
        raise GameError("unknown_type")
    if seat is None:
        raise GameError("spectator")
    return make(frame, seat)
