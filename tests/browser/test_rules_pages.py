"""Issue 42: the site's pages around the table as a reader meets them: a wide table on a phone
says that it scrolls sideways, and the language switcher keeps the reader's place."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import LANGUAGES, close, device

pytestmark = pytest.mark.browser


def fade(region):
    return region.evaluate("e => getComputedStyle(e).maskImage || getComputedStyle(e).webkitMaskImage")


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_fades_the_side_of_a_wide_rules_table_that_has_more_on_a_phone(browser, live_server_url, language):
    page = device(browser, "phone")
    page.goto(f"{live_server_url}/{language}/how-to-play/#hollywood-sheet")
    region = page.locator("#hollywood-sheet .table-scroll")
    assert region.evaluate("e => e.scrollWidth > e.clientWidth"), "the sheet fits: nothing to show"
    expect(region).to_have_attribute("data-more", "right")
    assert "gradient" in fade(region), "no cue on the side with more"
    region.evaluate("e => e.scrollBy(40, 0)")
    expect(region).to_have_attribute("data-more", "left right")
    region.evaluate("e => e.scrollTo(e.scrollWidth, 0)")
    expect(region).to_have_attribute("data-more", "left")
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#scores .table-scroll")).to_have_attribute("data-more", "")
    assert fade(page.locator("#scores .table-scroll")) == "none", "a table that fits fades"
    close(page)


def test_it_keeps_the_place_on_the_page_when_the_language_changes(browser, live_server_url):
    page = device(browser, "desktop")
    page.goto(f"{live_server_url}/tr/how-to-play/#knocking")
    page.click(".languages a[hreflang=en]")
    expect(page).to_have_url(f"{live_server_url}/en/how-to-play/#knocking")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    close(page)
