"""The shared steps of the table's browser tests by feature (issue 42): a device of each size,
a table against the computer with any rules, what is in sight and what a point hits, and the
screenshots the tests leave in test-results/screenshots/ to be looked at."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, armed, hand_codes, version, wait_for_version
from tests.browser.test_phone_table import (
    ALL_SIZES, DISCARDS, LANDSCAPE, SIZES, device, next_hand, picked, press, to_my_discard, visible_middle,
)
from tests.browser.test_table import DESKTOP, PHONE, SCREENSHOTS, axe_violations, close, join, open_table

__all__ = [
    "ALL_SIZES", "DESKTOP", "DISCARDS", "LANDSCAPE", "LANGUAGES", "PHONE", "PHONES", "SIZES", "WAIT_MS", "armed",
    "axe_violations", "close", "computer_table", "covered", "device", "hand_codes", "join", "next_hand", "off_screen",
    "open_table", "picked", "press", "shoot", "two_players", "to_my_discard", "version", "visible_middle", "wait_for_version",
]

LANGUAGES = ["en", "es", "de", "cs", "tr"]
PHONES = pytest.mark.parametrize("size", ["phone", "landscape"])


def computer_table(page, base_url, *, language="en", level="club", clock=None, options=(), name="Maximiliana", guide=True):
    """A Hollywood table against the computer opened from the home page in `language`, with a
    turn clock of `clock` seconds and the checkbox `options` (straight, oklahoma); without
    `guide`, the guided hand skipped beforehand (its cookie), as a player who skipped it once."""
    if not guide:
        page.context.add_cookies([{"name": "guide", "value": "off", "url": base_url}])
    page.goto(f"{base_url}/{language}/")
    page.fill("#open-name", name)
    page.check("input[name=scoring][value=hollywood]")
    for option in options:
        page.check(f"input[name={option}]")
    if clock:
        page.check(f"input[name=clock][value='{clock}']")
    page.select_option("#computer-level", level)
    page.click("form.open-table button[name=against_computer]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    return page


def shoot(page, name):
    """The screen as the player sees it now, without scrolling: looked at before an item is done."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"issue42-{name}-{page.size}.png")


def off_screen(locator):
    """The elements of `locator` not wholly inside the viewport as the page stands (no scrolling
    first), each as its id or text and its box."""
    return locator.evaluate_all("""elements => elements.filter(e => {
        const box = e.getBoundingClientRect();
        return box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth;
    }).map(e => `${e.id || e.dataset.card || e.textContent.trim()} at ${Math.round(e.getBoundingClientRect().top)}-${Math.round(e.getBoundingClientRect().bottom)}`)""")


def covered(locator):
    """The elements of `locator` whose middle another element covers (a fixed bar over the hand)."""
    return locator.evaluate_all("""elements => elements.filter(e => {
        const box = e.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !hit || !(hit === e || e.contains(hit));
    }).map(e => e.id || e.dataset.card || e.textContent.trim())""")


def two_players(browser, base_url, size="desktop", audited=False):
    """Ana opens a table from the home page and Ben takes the other seat, each on a `size`
    device of their own; both see the other online."""
    ana = open_table(device(browser, size, audited=audited), base_url, "Ana")
    ben = join(device(browser, size, audited=audited), ana.locator("#share-link").input_value(), "Ben")
    for page in (ana, ben):
        expect(page.locator(".player .presence.offline")).to_have_count(0, timeout=WAIT_MS)
    return ana, ben
