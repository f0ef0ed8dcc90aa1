import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest

from tests.rules.pages import LANGUAGES, PAGE_NAMES, page_url

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "xhtml": "http://www.w3.org/1999/xhtml"}


@pytest.fixture
def sitemap_urls(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    return ET.fromstring(response.content).findall("s:url", NS)


def alternates_of(url):
    return {link.get("hreflang"): link.get("href") for link in url.findall("xhtml:link", NS)}


def test_it_lists_every_page_in_every_language(sitemap_urls):
    locations = sorted(url.find("s:loc", NS).text for url in sitemap_urls)
    expected = sorted(f"http://testserver{page_url(name, code)}" for name in PAGE_NAMES for code in LANGUAGES)
    assert locations == expected


def test_it_gives_every_entry_its_alternates_and_an_x_default(sitemap_urls):
    for url in sitemap_urls:
        assert sorted(alternates_of(url)) == sorted([*LANGUAGES, "x-default"])


def without_language(href):
    """"/de/history/" and "/history/" are the same page: drop the language prefix."""
    path = urlsplit(href).path
    prefix = path.split("/")[1]
    return path.removeprefix(f"/{prefix}") if prefix in LANGUAGES else path


def test_it_points_each_alternate_at_the_same_page(sitemap_urls):
    for url in sitemap_urls:
        location = url.find("s:loc", NS).text
        pages = {without_language(href) for href in alternates_of(url).values()}
        assert pages == {without_language(location)}
