"""Told of one's turn in the browser: a tab in the background shows it in its title and icon,
"Your tables" lists a browser's tables (screenshots on a phone), and "Notify me" asks for
notices only when pressed, never on load."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, version, wait_for_version
from tests.browser.test_table import (PHONE, SCREENSHOTS, armed, close, join, mover_of, new_page, no_horizontal_scroll,
                                      open_table, press_move, seated, simple_move)

pytestmark = pytest.mark.browser

# The tab as a browser has it in the background (headless pages are never hidden by themselves).
HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
# Counts what would show the browser's permission prompt, or subscribe, before the page's scripts run.
COUNT_ASKS = """() => {
  window.asked = 0;
  if (window.Notification) {
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = () => { window.asked += 1; return ask(); };
  }
}"""


def test_a_tab_in_the_background_shows_in_its_title_and_icon_that_the_opponents_move_made_it_its_turn(
        browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    mover = mover_of(ana, ben)
    waiter = ben if mover is ana else ana
    waiter.evaluate(HIDE)
    assert not waiter.title().startswith("●")
    before = version(mover)
    armed(mover)
    press_move(simple_move(mover))
    wait_for_version(waiter, before + 1)
    expect(waiter).to_have_title(re.compile(r"^● Your turn · "))
    assert waiter.evaluate("document.hidden") is True
    assert waiter.locator("#favicon").get_attribute("href").endswith("favicon-turn.svg")
    assert not mover.title().startswith("●")
    close(ana, ben)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_your_tables_lists_a_browsers_tables_on_a_phone_with_whose_turn_and_the_badge(browser, live_server_url,
                                                                                     scheme):
    ana = new_page(browser, PHONE, scheme)
    ana.goto(f"{live_server_url}/en/")
    ana.check("input[name=pace][value='2']")
    expect(ana.locator(".clock-choice input").first).to_be_disabled()  # a turn clock is for real time only
    ana.fill("#open-name", "Ana")
    ana.click("form.open-table button[name=open_table]")
    ben = join(new_page(browser, PHONE, scheme), ana.locator("#share-link").input_value(), "Bartholomew")
    open_table(ana, live_server_url, "Ana")  # a second table, nobody at it yet
    ana.goto(f"{live_server_url}/en/tables/")
    entries = ana.locator(".your-table")
    expect(entries).to_have_count(2)
    expect(entries.nth(0)).to_contain_text("Waiting for an opponent")  # the newest first
    expect(entries.nth(1)).to_contain_text("Against Bartholomew")
    expect(entries.nth(1)).to_contain_text(re.compile(r"(Your turn|Bartholomew’s turn) · (2\xa0days, 23\xa0hours|3\xa0days) left"))
    waiting = 1 if "Your turn" in entries.nth(1).inner_text() else 0
    expect(ana.locator(".waiting-badge")).to_have_count(waiting)
    assert no_horizontal_scroll(ana)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(path=SCREENSHOTS / f"your-tables-phone-{scheme}.png", full_page=True)
    close(ana, ben)


def test_notify_me_asks_for_notices_only_when_pressed_never_on_load(browser, live_server_url):
    ana = new_page(browser)
    ana.context.add_init_script(f"({COUNT_ASKS})()")
    open_table(ana, live_server_url, "Ana")
    button = ana.locator("#notify-me")
    expect(button).to_be_visible()
    assert ana.evaluate("window.asked") == 0
    button.click()
    # The headless browser has no one to say yes: the prompt is answered "denied", and the page says so.
    expect(ana.locator("#notify-status")).to_have_text(re.compile("blocks notices|could not be turned on"),
                                                       timeout=WAIT_MS)
    assert ana.evaluate("window.asked") == 1
    assert not ana.script_errors, ana.script_errors
    close(ana)
