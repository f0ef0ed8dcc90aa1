from django.conf import settings
from django.urls import reverse, translate_url
from django.utils.translation import get_language_info, gettext_lazy as _, pgettext_lazy

# The site nav: URL name → label. The labels are the pages' own titles, so one
# translation serves both.
SITE_NAV = [
    ("rules:home", pgettext_lazy("site navigation", "Home")),
    ("rules:how_to_play", _("How to play")),
    ("rules:hollywood_scoring", _("Hollywood scoring")),
    ("rules:history", _("History")),
    ("archive:list", pgettext_lazy("page title", "Archive")),
]


def current_view_name(request):
    match = getattr(request, "resolver_match", None)
    return match.view_name if match else None


def site_nav(request):
    current = current_view_name(request)
    return [
        {"url": reverse(name), "label": label, "current": name == current}
        for name, label in SITE_NAV
    ]


def language_alternates(request):
    """The same page in every language, as a path and as an absolute URL (for hreflang).

    The switcher uses plain links from translate_url: Django's set_language view keeps
    the old prefix when the cookie and the page disagree (ticket #28567).
    """
    alternates = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(request.path, code)
        alternates.append({
            "code": code,
            "name": get_language_info(code)["name_local"],
            "url": url,
            "absolute_url": request.build_absolute_uri(url),
        })
    return alternates


def language_neutral_url(request):
    """The page without its language prefix, for hreflang="x-default".

    "/history/" redirects by cookie, then Accept-Language, else English (LocaleMiddleware),
    which is what x-default means; the sitemap's x-default is built the same way.
    """
    default_url = translate_url(request.path, settings.LANGUAGE_CODE)
    return default_url.replace(f"/{settings.LANGUAGE_CODE}/", "/", 1)


def site(request):
    """Version, commit, the site nav and the same page in every language, for base.html."""
    return {
        "site_version": settings.SITE_VERSION,
        "site_commit": settings.SITE_COMMIT,
        "site_nav": site_nav(request),
        "language_alternates": language_alternates(request),
        "x_default_url": request.build_absolute_uri(language_neutral_url(request)),
    }
