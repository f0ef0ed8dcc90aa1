"""The chat badge's unread count, read out in the page's language with its plural rules
(Intl.PluralRules in the browser, the catalogue's words from the server)."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS
from tests.browser.test_phone_table import device
from tests.browser.test_table import close, join

pytestmark = pytest.mark.browser


def open_czech_table(page, base_url):
    page.goto(f"{base_url}/cs/")
    page.fill("#open-name", "Ana")
    page.check("input[name=scoring][value=hollywood]")
    page.click("form.open-table button[type=submit]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    return page


def test_it_reads_out_the_unread_chat_lines_with_the_czech_plural(browser, live_server_url):
    ana = open_czech_table(device(browser, "phone", locale="cs"), live_server_url)
    ben = join(device(browser, "phone", locale="cs"), ana.locator("#share-link").input_value(), "Ben")
    ana.evaluate("() => scrollTo(0, 0)")  # the chat under the felt, out of sight
    said = {1: "1 nová", 2: "2 nové", 5: "5 nových"}
    for count in range(1, 6):
        ben.fill("#chat-text", f"Ahoj {count}")
        ben.press("#chat-text", "Enter")
        expect(ana.locator("#chat-unread")).to_have_text(str(count), timeout=WAIT_MS)
        if count in said:
            expect(ana.locator("#chat-unread-words")).to_have_text(said[count])
    assert ana.script_errors == []
    close(ana, ben)
