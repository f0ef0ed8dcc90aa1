"""Who is a player: a long-lived random cookie tied to a `Player` row.

No sign-up. The cookie holds a secret; the database keeps only its hash. Live play
calls `player_for_seat` in the HTTP view that gives a seat (a WebSocket cannot set a
cookie), and `identify_player` wherever it wants to know who is asking.
"""

from django.conf import settings

from games.archive.models import Player, hash_token, new_token

COOKIE_NAME = "player"
COOKIE_MAX_AGE = 5 * 365 * 24 * 60 * 60  # five years: "long-lived"
NAME_MAX_LENGTH = 24


def clean_name(name):
    """The name trimmed: 1 to 24 printable characters, else ValueError(code).

    The one rule for names; `games.services.clean_name` turns the code into a GameError.
    """
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise ValueError("name_missing")
    if len(name) > NAME_MAX_LENGTH:
        raise ValueError("name_too_long")
    # str.isprintable: no control, format or separator characters other than the space.
    if not name.isprintable():
        raise ValueError("name_not_printable")
    return name


def player_for_token(token):
    if not token:
        return None
    return Player.objects.filter(token_hash=hash_token(token)).first()


def identify_player(request):
    """The Player of this browser's cookie, or None."""
    return player_for_token(request.COOKIES.get(COOKIE_NAME))


def set_player_cookie(response, token):
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=not settings.DEBUG,
    )


def create_player(name):
    """A new Player and its secret (shown once: the caller puts it in a cookie)."""
    token = new_token()
    player = Player.objects.create(name=clean_name(name), token_hash=hash_token(token))
    return player, token


def player_for_seat(request, response, name):
    """The player taking a seat under `name`.

    The cookie's player is reused (renamed if the name changed: stats follow the
    player, not the string); otherwise a new one is created and its cookie is set
    on `response`. Raises ValueError for a bad name.
    """
    name = clean_name(name)
    player = identify_player(request)
    if player is None:
        player, token = create_player(name)
        set_player_cookie(response, token)
    elif player.name != name:
        player.name = name
        player.save(update_fields=["name"])
    return player
