from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from hollywood_site import views

urlpatterns = [
    path("", include("rules.sitemap_urls")),
    path("api/", include("games.live.api_urls")),
    path("api/", include("games.archive.api_urls")),
    # Outside i18n_patterns: it is the way from one language's pages to another's.
    path("language/<str:code>/", views.switch_language, name="switch_language"),
    # Asked for by browsers and feed readers that never read the page's <link rel="icon">.
    path("favicon.ico", views.favicon),
]

# Every page carries its language, English included; "/" is redirected by
# LocaleMiddleware using the language cookie, then Accept-Language, else English.
urlpatterns += i18n_patterns(
    path("", include("rules.urls")),
    path("", include("games.live.urls")),
    path("", include("games.push.urls")),
    path("", include("games.archive.urls")),
    prefix_default_language=True,
)

# 404 and 403 are Django's own views drawing the site's 404.html and 403.html, CSRF
# failures its csrf_failure drawing 403_csrf.html, all with the request's context; a
# server error needs a view that asks nothing of the request or the database.
handler500 = views.server_error
