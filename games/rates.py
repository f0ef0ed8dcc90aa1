"""The request rate limits' one reader, for live play and the archive alike."""

from django.conf import settings


def rate_for(group, request):
    """django-ratelimit's `rate`, read from RATE_LIMITS when it is needed: tests and deployments set it."""
    return settings.RATE_LIMITS[group]
