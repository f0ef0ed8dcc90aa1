from urllib.parse import unquote, urlsplit, urlunsplit

from django.conf import settings
from django.urls import NoReverseMatch, Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext_lazy as _, override, pgettext_lazy

# The site nav: URL name → label. The labels are the pages' own titles, so one
# translation serves both.
SITE_NAV = [
    ("rules:home", pgettext_lazy("site navigation", "Home")),
    ("rules:how_to_play", _("How to play")),
    ("rules:hollywood_scoring", _("Hollywood scoring")),
    ("rules:history", _("History")),
    ("rules:fairness", _("Fair deals")),
    ("archive:list", pgettext_lazy("page title", "Archive")),
]


def current_view_name(request):
    match = getattr(request, "resolver_match", None)
    return match.view_name if match else None


def site_nav(current=None):
    return [
        {"url": reverse(name), "label": label, "current": name == current}
        for name, label in SITE_NAV
    ]


def page_address(request):
    """The address this page can be fetched again at, query string included.

    A form's answer (a failed "Open a table" or join) is drawn at the form's POST address,
    which a link cannot repeat: its page is the one the form was sent from (the Referer,
    when it is on this site), else the home page.
    """
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()):
        parts = urlsplit(referer)
        return f"{parts.path}?{parts.query}" if parts.query else parts.path
    return reverse("rules:home")


def translated_addresses(address):
    """`address` in every language, by code: as translate_url gives it for a page the site
    has (the path resolved once here, where translate_url resolves it again for each
    language, and the resolving was most of this context's cost); for one it has not (a
    404), the same address under the other prefix, still a 404 there."""
    parsed = urlsplit(address)
    try:
        match = resolve(unquote(parsed.path))
    except Resolver404:
        match = None
    return {code: translated_address(address, parsed, match, code) for code, _name in settings.LANGUAGES}


def translated_address(address, parsed, match, code):
    if match is not None:
        name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
        with override(code):
            try:
                path = reverse(name, args=match.args, kwargs=match.kwargs)
            except NoReverseMatch:
                path = None
        if path is not None:
            translated = urlunsplit((parsed.scheme, parsed.netloc, path, parsed.query, parsed.fragment))
            if translated != address:
                return translated
    prefix = address.split("/", 2)[1] if address.count("/") >= 2 else ""
    if prefix in dict(settings.LANGUAGES) and prefix != code:
        return f"/{code}/{address.split('/', 2)[2]}"
    return address


def language_alternates(request, addresses):
    """The same page in every language (`addresses`, by code), its query string kept: a
    path, an absolute URL (for hreflang) and the switcher's link, which remembers the
    choice in the language cookie (switch_language) on its way there.

    Plain links as translate_url makes them, computed in the page's own request: Django's
    set_language view keeps the old prefix when the cookie and the page disagree
    (ticket #28567).
    """
    alternates = []
    for code, _name in settings.LANGUAGES:
        url = addresses[code]
        alternates.append({
            "code": code,
            "name": settings.LANGUAGE_NAMES_IN_THEIR_OWN_WORDS[code],
            "url": url,
            "absolute_url": request.build_absolute_uri(url),
            "switch_url": f"{reverse('switch_language', args=[code])}?{urlencode({'next': url})}",
        })
    return alternates


def language_neutral_url(addresses):
    """The page without its language prefix, for hreflang="x-default".

    "/history/" redirects by cookie, then Accept-Language, else English (LocaleMiddleware),
    which is what x-default means; the sitemap's x-default is built the same way.
    """
    return addresses[settings.LANGUAGE_CODE].replace(f"/{settings.LANGUAGE_CODE}/", "/", 1)


def site(request):
    """Version, commit, the site nav and the same page in every language, for base.html."""
    addresses = translated_addresses(page_address(request))
    return {
        "site_version": settings.SITE_VERSION,
        "site_commit": settings.SITE_COMMIT,
        "site_nav": site_nav(current_view_name(request)),
        "language_alternates": language_alternates(request, addresses),
        "x_default_url": request.build_absolute_uri(language_neutral_url(addresses)),
    }
