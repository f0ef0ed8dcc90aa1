"""The site's URLs and its error handlers, plus one page with a bug, to see the 500 page."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import path

from hollywood_site.urls import handler500, urlpatterns as site_urlpatterns

__all__ = ["handler500", "urlpatterns"]


def broken(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [*site_urlpatterns, *i18n_patterns(path("broken/", broken))]
