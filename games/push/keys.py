"""The site's VAPID key pair (settings.PUSH_VAPID_PRIVATE_KEY): it signs every push request,
and its public half is the applicationServerKey a browser subscribes with."""

from functools import lru_cache

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


def is_configured():
    return bool(settings.PUSH_VAPID_PRIVATE_KEY)


@lru_cache(maxsize=4)
def _vapid(private_key):
    return Vapid.from_string(private_key)


def vapid():
    return _vapid(settings.PUSH_VAPID_PRIVATE_KEY)


def public_key():
    """The applicationServerKey: the public point, uncompressed, base64url without padding."""
    return b64urlencode(vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def new_private_key():
    """A new private key, base64url (what PUSH_VAPID_PRIVATE_KEY holds)."""
    pair = Vapid()
    pair.generate_keys()
    return b64urlencode(pair.private_key.private_numbers().private_value.to_bytes(32, "big"))
