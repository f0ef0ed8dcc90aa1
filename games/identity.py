"""Who someone is without an account: secrets, their cookies, and the rule for names.

Below both the archive (a player's long-lived secret) and live play (a seat's secret): one
way to make a secret, one way to keep it (its SHA-256 only), one cookie policy.
"""

import hashlib
import hmac
import re
import secrets
import unicodedata

from django.conf import settings

from games.errors import GameError

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
    """The name trimmed, exactly as typed otherwise: 1 to 24 characters as a reader counts
    them (grapheme clusters: "👩‍💻" is one), else ValueError(code). Nothing is ever cut
    or dropped: a name is taken whole or refused with the reason."""
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise ValueError("name_missing")
    if len(name) > NAME_MAX_CODE_POINTS or grapheme_count(name) > NAME_MAX_LENGTH:
        raise ValueError("name_too_long")
    if not all(may_appear_in_a_name(character) for character in name):
        raise ValueError("name_not_printable")
    problem = unreadable(name)
    if problem:
        raise ValueError(f"name_{problem}")
    return name


def chat_text(text):
    """A chat line trimmed ("" when there is none), or GameError when a reader would see
    nothing in it (chat_invisible) or a pile of marks on one character (chat_too_many_marks)."""
    text = text.strip() if isinstance(text, str) else ""
    problem = text and unreadable(text)
    if problem:
        raise GameError(f"chat_{problem}")
    return text


# Combining marks on one character: Vietnamese stacks two, pointed Hebrew and Thai three, and
# text piled with dozens of them ("Zalgo") covers the lines around it.
MAX_MARKS = 4
# Letters and symbols that show nothing: Hangul fillers, the blank Braille pattern, Khmer's
# inherent vowels, the combining grapheme joiner, the Mongolian vowel separator.
INVISIBLE_CHARACTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5", "\u034f", "\u180e"}
# Spaces, format characters (joiners among them) and marks show nothing by themselves.
INVISIBLE_CATEGORIES = {"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Mc"}


def unreadable(text):
    """Why a reader cannot read `text`: "invisible" (nothing in it can be seen) or
    "too_many_marks" (a character carries more than MAX_MARKS combining marks); else None."""
    if not any(character not in INVISIBLE_CHARACTERS and unicodedata.category(character) not in INVISIBLE_CATEGORIES
               for character in text):
        return "invisible"
    marks = 0
    for character in text:
        marks = marks + 1 if unicodedata.category(character) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            return "too_many_marks"
    return None


# Twenty-four of the longest clusters people type (a family emoji is 7 code points) fit
# in the database's column; beyond it a name is too long whatever it looks like.
NAME_MAX_CODE_POINTS = 200
# Format characters that belong inside emoji and scripts: the (non-)joiners that build
# 👩‍💻 and Persian words, and the tag characters of subdivision flags (🏴 Scotland).
NAME_FORMAT_CHARACTERS = {"\u200c", "\u200d"} | {chr(code) for code in range(0xE0020, 0xE0080)}
# Control, surrogate, private-use, unassigned, line and paragraph separators: invisible
# or unprintable, never part of a name.
REFUSED_CATEGORIES = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


def may_appear_in_a_name(character):
    category = unicodedata.category(character)
    if category == "Cf":
        return character in NAME_FORMAT_CHARACTERS
    return category not in REFUSED_CATEGORIES


def grapheme_count(text):
    """How many characters a reader sees: extended grapheme clusters (Unicode UAX #29),
    for what names hold: combining marks, emoji with modifiers, variation selectors, tags
    and zero-width joiners, flag pairs, and Hangul syllables built from jamo."""
    count, previous, flags = 0, None, 0
    for character in text:
        flag = "\U0001F1E6" <= character <= "\U0001F1FF"
        joins = previous is not None and (
            extends(character)
            or previous == "\u200d" and is_pictographic(character)
            or flag and flags % 2 == 1
            or hangul_continues(previous, character)
        )
        flags = flags + 1 if flag else 0
        count += not joins
        previous = character
    return count


def extends(character):
    """Marks, joiners, emoji skin tones, variation selectors and tags: part of the
    character before them."""
    return (unicodedata.category(character) in ("Mn", "Me", "Mc") or character in NAME_FORMAT_CHARACTERS
            or "\U0001F3FB" <= character <= "\U0001F3FF")


def is_pictographic(character):
    return unicodedata.category(character) == "So" or "\U0001F000" <= character <= "\U0001FAFF"


def hangul_continues(previous, character):
    """A vowel or final jamo after a Hangul letter or syllable; a leading one after a leading one."""
    leading, trailing = "\u1100" <= character <= "\u115f", "\u1160" <= character <= "\u11ff" or "\ud7b0" <= character <= "\ud7ff"
    previous_hangul = "\u1100" <= previous <= "\u11ff" or "\uac00" <= previous <= "\ud7a3" or "\ud7b0" <= previous <= "\ud7ff"
    return (trailing and previous_hangul) or (leading and "\u1100" <= previous <= "\u115f")
