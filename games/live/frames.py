"""What a client sends, read once: a JSON object, or a refusal (GameError) that names why.

One parser for the JSON API's request bodies and the sockets' frames, so that both refuse
the same things the same way.
"""

import json

from games.errors import GameError


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
