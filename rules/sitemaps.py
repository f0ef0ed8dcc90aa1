from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from rules.urls import PAGE_NAMES, app_name


class RulesSitemap(Sitemap):
    """Every rules page in every language, each entry with its xhtml:link alternates."""

    i18n = True
    alternates = True
    x_default = True

    def items(self):
        return PAGE_NAMES

    def location(self, item):
        # Called inside translation.override(language), so reverse() adds the right prefix.
        return reverse(f"{app_name}:{item}")
