from django.conf import settings

from tests.rules.html import elements, main_text
from tests.rules.pages import get_page, page_url


def test_it_answers_every_page_in_every_language(client, page_name, language):
    response = client.get(page_url(page_name, language))
    assert response.status_code == 200


def test_it_declares_the_page_language_on_the_html_element(client, page_name, language):
    html = get_page(client, page_name, language)
    assert elements(html, "html") == [{"lang": language}]


def test_it_marks_the_current_page_in_the_site_nav(client, page_name, language):
    html = get_page(client, page_name, language)
    current = elements(html, "a", inside="site-nav", aria_current="page")
    assert [link["href"] for link in current] == [page_url(page_name, language)]


def test_it_links_every_rules_page_and_the_archive_from_the_site_nav(client, language):
    html = get_page(client, "home", language)
    links = [link["href"] for link in elements(html, "a", inside="site-nav")]
    rules_pages = [page_url(name, language) for name in ("home", "how_to_play", "hollywood_scoring", "history", "fairness")]
    assert links == rules_pages + [f"/{language}/archive/"]


def test_it_has_a_skip_link_to_a_main_that_can_take_focus(client, page_name):
    html = get_page(client, page_name, "en")
    assert elements(html, "a", class_="skip-link")[0]["href"] == "#main"
    assert elements(html, "main") == [{"id": "main", "tabindex": "-1"}]


def test_it_shows_the_beta_badge(client, page_name):
    html = get_page(client, page_name, "en")
    assert '<span class="badge">Beta</span>' in html


def test_it_shows_the_version_and_commit_in_the_footer(client, page_name):
    html = get_page(client, page_name, "en")
    assert f"v{settings.SITE_VERSION} · {settings.SITE_COMMIT}" in html


def test_it_keeps_the_open_table_slot_on_the_home_page():
    source = (settings.BASE_DIR / "templates/rules/home.html").read_text()
    assert '{% include "games/_open_table.html" %}' in source


def test_it_links_the_hollywood_page_to_the_history(client, language):
    html = get_page(client, "hollywood_scoring", language)
    links = [link["href"] for link in elements(html, "a", inside="read-on")]
    assert page_url("history", language) in links


def test_it_shows_card_pictures_on_the_how_to_play_page(client, language):
    html = get_page(client, "how_to_play", language)
    cards = [attrs for attrs in elements(html, "span", role="img") if "card" in attrs["class"].split()]
    assert len(cards) > 40
    assert all(card["aria-label"] for card in cards)


def test_it_keeps_the_page_text_inside_main(client, page_name, language):
    # The term tests below read only <main>; make sure there is real text there.
    assert len(main_text(get_page(client, page_name, language))) > 100
