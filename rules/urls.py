from django.urls import path
from django.views.generic import TemplateView

app_name = "rules"


def page(route, name):
    """A static, translated page: the template is named after the URL name."""
    return path(route, TemplateView.as_view(template_name=f"rules/{name}.html"), name=name)


# Paths stay in English in every language, so translate_url only swaps the prefix.
urlpatterns = [
    page("", "home"),
    page("how-to-play/", "how_to_play"),
    page("hollywood-scoring/", "hollywood_scoring"),
    page("history/", "history"),
    page("fairness/", "fairness"),
]

# The names in the order the site nav and the sitemap list them.
PAGE_NAMES = [pattern.name for pattern in urlpatterns]
