"""A finished match's answers and page parts, kept in the cache for KEPT_SECONDS.

A finished (or abandoned) match never changes, nor does a review once ready for its hands, so
what is built from them is kept rather than read and built again: the match's JSON, its page's
hands and score sheet, its review's hands. What can change is in the key: the players' names
(a player who sits again under a new name is renamed, games.archive.players), the reader's
language, the review's id and its hands, and the site's commit (a new release draws anew). A
match still being played is never kept.

Without the cache (Redis down) a page is built as if nothing were kept: the cache's errors
are misses (hollywood_site.cache).
"""

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from games.archive.models import ArchivedMatch

KEPT_SECONDS = 600


def match_part(archived, part, build, language=True):
    """`part` of `archived` (built by `build()` when not kept), kept once the match is over."""
    if archived.status == ArchivedMatch.PLAYING:
        return build()
    return kept(key(archived, part, language), build)


def review_part(archived, review, part, build, language=True):
    """`part` of a ready review of `archived`: kept for the review's hands, whatever the match's status."""
    return kept(key(archived, f"{part}:{review.pk}:{review.hand_count}", language), build)


def kept(name, build):
    value = cache.get(name)
    if value is None:
        value = build()
        cache.set(name, value, KEPT_SECONDS)
    return value


def key(archived, part, language):
    # Hashed: a name may hold spaces and any character, which a cache key should not.
    names = hashlib.blake2b("\n".join(player.name for player in archived.players).encode(), digest_size=12).hexdigest()
    return ":".join(["archive", settings.SITE_COMMIT, part, archived.public_id, names,
                     get_language() if language else ""])
