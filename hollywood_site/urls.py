from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

urlpatterns = [
    path("", include("rules.sitemap_urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("games.archive.api_urls")),
]

# Every page carries its language, English included; "/" is redirected by
# LocaleMiddleware using the language cookie, then Accept-Language, else English.
urlpatterns += i18n_patterns(
    path("", include("rules.urls")),
    path("", include("games.urls")),
    path("", include("games.archive.urls")),
    prefix_default_language=True,
)
