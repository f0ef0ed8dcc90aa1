"""The site's own pages that belong to no app: the language switch, the favicon, the server error."""

from django.conf import settings
from django.http import Http404, HttpResponsePermanentRedirect, HttpResponseRedirect, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse, translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.live.api import error_response
from games.errors import GameError
from hollywood_site.context_processors import site_nav


@require_GET
@never_cache
def switch_language(request, code):
    """A switcher link: remember the language picked in the language cookie, then go to
    the page in that language (`next`, computed in the page's own request).

    The cookie is what a share link without a prefix follows afterwards. A plain GET link,
    not Django's POST set_language, so the switcher needs no form and no script.
    """
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
        next_url = translate_url(reverse("rules:home"), code)
    response = HttpResponseRedirect(next_url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def server_error(request):
    """The site's own 500 page, in the active language.

    Drawn from what cannot be what failed: no database, no request and none of the
    context processors (a switcher built from a broken request would fail again).
    """
    context = {
        "site_version": settings.SITE_VERSION,
        "site_commit": settings.SITE_COMMIT,
        "site_nav": site_nav(),
    }
    return HttpResponseServerError(loader.get_template("500.html").render(context))


def rate_limited(request, exception):
    """RATELIMIT_VIEW: a client address over its rate (games.live.limits) gets a 429, as JSON
    for the API and as the site's page for a browser."""
    if request.path.startswith("/api/"):
        return error_response(request, GameError("too_many_requests"))
    return render(request, "429.html", status=429)


def favicon(request):
    """The icon's static address, looked up per request: in production it has a hash."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
