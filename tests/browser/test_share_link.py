"""Issue 42: the host's share link: "Copied" says so for a moment, then the button offers to
copy again."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WAIT_MS, close, device, open_table

pytestmark = pytest.mark.browser


def test_it_says_copied_for_a_moment_then_offers_to_copy_again(browser, live_server_url):
    page = open_table(device(browser, "desktop"), live_server_url)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    button = page.locator(".share .copy")
    label = button.inner_text()
    button.click()
    expect(button).to_have_text(button.get_attribute("data-text-copied"))
    expect(button).to_have_text(label, timeout=WAIT_MS)
    button.click()
    expect(button).to_have_text(button.get_attribute("data-text-copied"))
    close(page)
