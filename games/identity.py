"""Who someone is without an account: secrets, their cookies, and the rule for names.

Below both the archive (a player's long-lived secret) and live play (a seat's secret): one
way to make a secret, one way to keep it (its SHA-256 only), one cookie policy.
"""

import hashlib
import hmac
import re
import secrets

from django.conf import settings

NAME_MAX_LENGTH = 24
# A public identifier (a table's code, a player's or an archived match's id): 9 random
# bytes, 72 bits, written as 12 URL-safe characters. Anything else in an address names
# nothing, and is refused before it reaches the database (PostgreSQL fails on a NUL byte).
PUBLIC_ID_PATTERN = "[A-Za-z0-9_-]{12}"
PUBLIC_ID = re.compile(PUBLIC_ID_PATTERN)


def new_public_id():
    """A fresh public identifier: not a secret, but not guessable either."""
    return secrets.token_urlsafe(9)


def is_public_id(value):
    return isinstance(value, str) and PUBLIC_ID.fullmatch(value) is not None


class PublicIdConverter:
    """`<public_id:code>` in a URL: an address that cannot be an id is a 404 at once."""

    regex = PUBLIC_ID_PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


def new_token():
    """A fresh secret: 24 random bytes, 192 bits, URL-safe."""
    return secrets.token_urlsafe(24)


def hash_token(token):
    """What the database keeps of a secret."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token_hash, token):
    """Whether `token` is the secret behind `token_hash`, compared in constant time."""
    return isinstance(token, str) and bool(token) and hmac.compare_digest(token_hash, hash_token(token))


def set_secret_cookie(response, name, token, max_age):
    """A secret's cookie: HttpOnly, SameSite=Lax, Secure wherever sessions are (production).

    Path "/": the table's WebSocket at /ws/tables/<code>/ receives a seat's cookie too.
    """
    response.set_cookie(
        name, token, max_age=max_age, path="/", httponly=True, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def clean_name(name):
    """The name trimmed: 1 to 24 printable characters, else ValueError(code)."""
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise ValueError("name_missing")
    if len(name) > NAME_MAX_LENGTH:
        raise ValueError("name_too_long")
    # str.isprintable: no control, format or separator characters other than the space.
    if not name.isprintable():
        raise ValueError("name_not_printable")
    return name
