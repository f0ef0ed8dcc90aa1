"""The pages under test and how to fetch them."""

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from rules.urls import PAGE_NAMES

LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATED_LANGUAGES = [code for code in LANGUAGES if code != settings.LANGUAGE_CODE]
__all__ = ["LANGUAGES", "PAGE_NAMES", "TRANSLATED_LANGUAGES", "page_url", "get_page"]


def page_url(name, language):
    with translation.override(language):
        return reverse(f"rules:{name}")


def get_page(client, name, language):
    """The page's HTML, asserting it answered 200."""
    response = client.get(page_url(name, language))
    assert response.status_code == 200, (name, language, response.status_code)
    return response.content.decode()
