from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language_info


def site(request):
    """Version, commit and the same page in every language, for the base template.

    The switcher uses plain links from translate_url: Django's set_language view keeps
    the old prefix when the cookie and the page disagree (ticket #28567).
    """
    alternates = [
        {
            "code": code,
            "name": get_language_info(code)["name_local"],
            "url": translate_url(request.path, code),
        }
        for code, _name in settings.LANGUAGES
    ]
    return {
        "site_version": settings.SITE_VERSION,
        "site_commit": settings.SITE_COMMIT,
        "language_alternates": alternates,
        "default_language_url": translate_url(request.path, settings.LANGUAGE_CODE),
    }
