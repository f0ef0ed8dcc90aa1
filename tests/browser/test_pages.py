import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_it_moves_focus_to_the_main_content_with_the_skip_link(page, live_server_url):
    page.goto(f"{live_server_url}/en/")
    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to main content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()


def test_it_switches_to_the_same_page_in_german(page, live_server_url):
    page.goto(f"{live_server_url}/en/")
    page.get_by_role("link", name="Deutsch").click()
    expect(page).to_have_url(f"{live_server_url}/de/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
