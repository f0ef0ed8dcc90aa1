from django.contrib.sitemaps.views import sitemap
from django.urls import path

from rules.sitemaps import RulesSitemap

# Outside i18n_patterns: one sitemap for the whole site, listing every language.
urlpatterns = [
    path(
        "sitemap.xml",
        sitemap,
        {"sitemaps": {"rules": RulesSitemap}},
        name="django.contrib.sitemaps.views.sitemap",
    ),
]
