"""The seat secret on the wire: one HttpOnly cookie per table, or a Bearer header."""

from django.conf import settings

COOKIE_MAX_AGE = 60 * 60 * 24 * 365


def cookie_name(code):
    return f"seat_{code}"


def set_seat_cookie(response, code, token):
    # Path "/" so that the WebSocket at /ws/tables/<code>/ receives it too.
    response.set_cookie(
        cookie_name(code), token, max_age=COOKIE_MAX_AGE, path="/",
        httponly=True, samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


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
