"""Who is a player: a long-lived random cookie tied to a `Player` row.

No sign-up. The cookie holds a secret; the database keeps only its hash (games.identity).
Live play asks `player_for` when someone takes a seat, and sets the cookie it returns in the
HTTP response (a WebSocket cannot set a cookie).
"""

from games.archive.models import Player
from games.identity import clean_name, hash_token, new_token, set_secret_cookie

COOKIE_NAME = "player"
COOKIE_MAX_AGE = 5 * 365 * 24 * 60 * 60  # five years: "long-lived"


def player_for_token(token):
    if not token or not isinstance(token, str):
        return None
    return Player.objects.filter(token_hash=hash_token(token)).first()


def identify_player(request):
    """The Player of this browser's cookie, or None."""
    return player_for_token(request.COOKIES.get(COOKIE_NAME))


def set_player_cookie(response, token):
    return set_secret_cookie(response, COOKIE_NAME, token, COOKIE_MAX_AGE)


def create_player(name):
    """A new Player and its secret (shown once: the caller puts it in a cookie)."""
    token = new_token()
    player = Player.objects.create(name=clean_name(name), token_hash=hash_token(token))
    return player, token


# The computer's players: one a level, a name a player can read as a name in any language.
# Their "secret" is no hash of anything, so no cookie or link can ever claim them.
COMPUTER_NAMES = {"beginner": "Bea", "club": "Cleo", "expert": "Max"}


def computer_player(level):
    player, _created = Player.objects.get_or_create(
        computer_level=level, defaults={"name": COMPUTER_NAMES[level], "token_hash": f"computer:{level}"},
    )
    return player


def player_for(name, token=None):
    """The player taking a seat under `name`: (player, the secret of a new player or None).

    The player of `token` is reused, renamed if the name changed (stats follow the player,
    not the string); without one, a new player is created. Raises ValueError for a bad name.
    """
    name = clean_name(name)
    player = player_for_token(token)
    if player is None:
        return create_player(name)
    if player.name != name:
        player.name = name
        player.save(update_fields=["name"])
    return player, None
