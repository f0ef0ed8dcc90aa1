import re

import pytest
from games.live.opening import open_table
from django.conf import settings

from tests.archive.helpers import hand, make_player, record
from tests.rules.html import elements
from tests.rules.pages import LANGUAGES, get_page, page_url


def absolute(path):
    return f"http://testserver{path}"


def switcher_links(html):
    return {link["hreflang"]: link["href"] for link in elements(html, "a", inside="languages")}


def where_the_switcher_leads(client, html):
    """Language code → the address its switcher link lands on, each link followed."""
    landings = {}
    for code, href in switcher_links(html).items():
        response = client.get(href)
        assert response.status_code == 302, (code, href)
        landings[code] = response["Location"]
    return landings


def pages_the_switcher_leads_to_after_a_failed_form(client, response):
    """Where each language link of a form's error answer lands, each asserted to be a page."""
    assert response.status_code == 400
    landings = where_the_switcher_leads(client, response.content.decode())
    assert [url for url in landings.values() if client.get(url).status_code != 200] == []
    return landings


def test_it_switches_language_on_the_same_page(client, page_name, language):
    html = get_page(client, page_name, language)
    assert where_the_switcher_leads(client, html) == {code: page_url(page_name, code) for code in LANGUAGES}


def test_it_remembers_the_language_picked_for_a_link_without_one(client):
    html = get_page(client, "history", "en")
    client.get(switcher_links(html)["cs"])
    response = client.get("/history/", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Location"] == "/cs/history/"


def test_it_never_switches_to_another_site(client):
    response = client.get("/language/de/?next=https://example.com/de/")
    assert response["Location"] == "/de/"


def test_it_knows_no_language_the_site_does_not_speak(client):
    assert client.get("/language/fr/?next=/en/").status_code == 404


def test_it_names_each_language_as_its_speakers_write_it_in_a_list(client):
    html = get_page(client, "home", "de")
    names = {"en": "English", "es": "Español", "de": "Deutsch", "cs": "Čeština", "tr": "Türkçe"}
    assert [code for code, name in names.items() if not re.search(f'lang="{code}"[^>]*>{name}</a>', html)] == []


@pytest.fixture
def two_pages_of_ana_s_matches(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    return [record(f"t{day}", (ana, ben), "hand", [hand(0, "knock", 10)], day=day) for day in range(25)]


def test_it_keeps_the_archive_page_and_filter_when_switching(client, two_pages_of_ana_s_matches):
    response = client.get("/en/archive/?player=Ana&page=2")
    assert response.status_code == 200
    landings = where_the_switcher_leads(client, response.content.decode())
    assert landings == {code: f"/{code}/archive/?player=Ana&page=2" for code in LANGUAGES}
    assert all(client.get(url).status_code == 200 for url in landings.values())


def test_it_names_page_two_with_its_filter_in_the_hreflang_alternates(client, two_pages_of_ana_s_matches):
    html = client.get("/de/archive/?player=Ana&page=2").content.decode()
    alternates = {link["hreflang"]: link["href"] for link in elements(html, "link", rel="alternate")}
    assert alternates["cs"] == absolute("/cs/archive/?player=Ana&page=2")
    assert alternates["x-default"] == absolute("/archive/?player=Ana&page=2")


@pytest.mark.django_db
def test_it_leads_every_language_link_to_a_page_after_a_failed_open_table(client):
    response = client.post("/es/tables/open/", {"name": "", "scoring": "hollywood"}, HTTP_REFERER="http://testserver/es/")
    assert pages_the_switcher_leads_to_after_a_failed_form(client, response) == {code: f"/{code}/" for code in LANGUAGES}


@pytest.mark.django_db
def test_it_leads_every_language_link_to_the_table_after_a_failed_join(client):
    table = open_table("Ana").table
    table_page = f"/tr/t/{table.code}/"
    response = client.post(f"{table_page}join/", {"name": ""}, HTTP_REFERER=f"http://testserver{table_page}")
    landings = pages_the_switcher_leads_to_after_a_failed_form(client, response)
    assert landings == {code: f"/{code}/t/{table.code}/" for code in LANGUAGES}


@pytest.mark.django_db
def test_it_leads_the_language_links_home_after_a_failed_form_sent_without_a_referer(client):
    response = client.post("/de/tables/open/", {"name": ""})
    assert pages_the_switcher_leads_to_after_a_failed_form(client, response) == {code: f"/{code}/" for code in LANGUAGES}


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


def archive_times(client, language):
    html = client.get(f"/{language}/archive/").content.decode()
    return re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", html)


def test_it_names_the_zone_of_every_time_in_the_archive(client, two_pages_of_ana_s_matches, language):
    times = archive_times(client, language)
    assert times and [time for time in times if not time.endswith(" UTC")] == []


def test_it_writes_a_czech_date_with_a_space_after_each_full_stop(client, db):
    record("t", (make_player("Ana"), make_player("Ben")), "hand", [hand(0, "knock", 10)], day=18)
    assert archive_times(client, "cs")[0].startswith("19. 11. 2026 ")


def test_it_keeps_the_language_cookie_to_this_site_s_own_links_and_a_year(client):
    cookie = client.get("/language/cs/?next=/cs/").cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "cs" and cookie["samesite"] == "Lax" and cookie["max-age"] == 365 * 24 * 60 * 60
