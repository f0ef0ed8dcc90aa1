"""The error pages are the site's own: its layout, the visitor's language, a way home."""

import pytest
from django.test import Client

from hollywood_site.context_processors import SITE_NAV
from tests.rules.html import elements, main_text

def looks_like_the_site(html, language):
    return (
        f'<html lang="{language}">' in html
        and len(elements(html, "a", inside="site-nav")) == len(SITE_NAV)
        and len(elements(html, "a", inside="way-home", href=f"/{language}/")) == 1
    )


def test_it_answers_an_unknown_address_in_czech_in_the_site_s_layout(client):
    response = client.get("/cs/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert looks_like_the_site(html, "cs")
    assert "Stránka nenalezena" in main_text(html)


def test_it_answers_an_unknown_address_without_a_prefix_in_the_browser_s_language(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="tr")
    assert response.status_code == 404
    assert looks_like_the_site(response.content.decode(), "tr")


@pytest.mark.django_db
def test_it_answers_an_archive_page_past_the_last_in_german(client):
    response = client.get("/de/archive/?page=100001")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in main_text(response.content.decode())


def test_it_keeps_the_hreflang_alternates_off_an_error_page(client):
    html = client.get("/es/no-such-page/").content.decode()
    assert elements(html, "link", rel="alternate") == []


@pytest.mark.django_db
def test_it_explains_a_csrf_failure_in_the_visitor_s_language_without_speaking_of_debug():
    response = Client(enforce_csrf_checks=True).post("/es/tables/open/", {"name": "Ana"})
    html = response.content.decode()
    assert response.status_code == 403
    assert looks_like_the_site(html, "es")
    assert "No se ha podido enviar el formulario" in main_text(html)
    assert "DEBUG" not in html and "CSRF" not in html


# No django_db mark: the 500 page must not need the database, which may be what failed.
@pytest.mark.urls("tests.rules.broken_urls")
def test_it_answers_a_server_error_in_the_visitor_s_language_without_the_database():
    response = Client(raise_request_exception=False).get("/cs/broken/")
    html = response.content.decode()
    assert response.status_code == 500
    assert looks_like_the_site(html, "cs")
    assert "Něco se pokazilo" in main_text(html)
