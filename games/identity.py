"""Who someone is without an account: secrets, their cookies, and the rule for names.

Below both the archive (a player's long-lived secret) and live play (a seat's secret): one
way to make a secret, one way to keep it (its SHA-256 only), one cookie policy.
"""

import hashlib
import hmac
import secrets

from django.conf import settings

NAME_MAX_LENGTH = 24


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
