"""The seat secret on the wire: one HttpOnly cookie per table, or a Bearer header."""

from games.identity import set_secret_cookie

COOKIE_MAX_AGE = 60 * 60 * 24 * 365
COOKIE_PREFIX = "seat_"


def cookie_name(code):
    return f"{COOKIE_PREFIX}{code}"


def set_seat_cookie(response, code, token):
    return set_secret_cookie(response, cookie_name(code), token, COOKIE_MAX_AGE)


def token_from_cookies(cookies, code):
    return cookies.get(cookie_name(code))


def token_from_headers(headers):
    """`Authorization: Bearer <token>` from ASGI headers (a list of byte pairs)."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None
