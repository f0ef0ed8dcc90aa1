import pytest
from django.conf import settings

from tests.rules.html import elements
from tests.rules.pages import LANGUAGES, get_page, page_url


def absolute(path):
    return f"http://testserver{path}"


def test_it_switches_language_on_the_same_page(client, page_name, language):
    html = get_page(client, page_name, language)
    switcher = {link["hreflang"]: link["href"] for link in elements(html, "a", inside="languages")}
    assert switcher == {code: page_url(page_name, code) for code in LANGUAGES}


def test_it_marks_the_current_language_in_the_switcher(client, language):
    html = get_page(client, "history", language)
    current = elements(html, "a", inside="languages", aria_current="true")
    assert [link["hreflang"] for link in current] == [language]


def test_it_links_the_same_page_in_every_language_with_hreflang(client, page_name, language):
    html = get_page(client, page_name, language)
    alternates = {link["hreflang"]: link["href"] for link in elements(html, "link", rel="alternate")}
    expected = {code: absolute(page_url(page_name, code)) for code in LANGUAGES}
    assert {code: alternates.get(code) for code in LANGUAGES} == expected


def test_it_links_a_language_neutral_x_default(client, page_name, language):
    html = get_page(client, page_name, language)
    x_default = elements(html, "link", rel="alternate", hreflang="x-default")
    english = page_url(page_name, settings.LANGUAGE_CODE)
    assert [link["href"] for link in x_default] == [absolute(english.replace("/en/", "/", 1))]


def test_it_redirects_the_x_default_address_to_the_visitor_s_language(client):
    response = client.get("/history/", HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 302
    assert response["Location"] == "/cs/history/"


def test_it_redirects_the_root_by_the_language_cookie_first(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Location"] == "/tr/"


def test_it_redirects_the_root_by_accept_language_without_a_cookie(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    assert response["Location"] == "/es/"


@pytest.mark.parametrize("accept_language", [None, "fr-FR,fr;q=0.9", "ja"])
def test_it_redirects_the_root_to_english_otherwise(client, accept_language):
    headers = {"HTTP_ACCEPT_LANGUAGE": accept_language} if accept_language else {}
    response = client.get("/", **headers)
    assert response.status_code == 302
    assert response["Location"] == "/en/"
