"""The table as a player meets it, in Chromium: phone and desktop, light and dark, the
keyboard alone, a double tap, a dragged hand, chat, a claim, a rematch and axe-core."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, hand_codes, has_move, version, wait_for_version

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-results" / "screenshots"  # gitignored: the test output
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG_NAME = "Maximiliana Wolkenstein!"  # 24 characters


def new_page(browser, viewport=DESKTOP, scheme="light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
    return context.new_page()


def open_table(page, base_url, name="Ana", scoring="hollywood", **options):
    page.goto(f"{base_url}/en/")
    page.fill("#open-name", name)
    page.check(f"input[name=scoring][value={scoring}]")
    for option in options:
        page.check(f"input[name={option}]")
    page.click("form.open-table button[type=submit]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    return page


def join(page, share_url, name="Ben"):
    page.goto(share_url)
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    return page


def seated(browser, base_url, first="Ana", second="Ben", viewport=DESKTOP, scheme="light", scoring="hollywood"):
    ana = open_table(new_page(browser, viewport, scheme), base_url, first, scoring)
    ben = join(new_page(browser, viewport, scheme), ana.locator("#share-link").input_value(), second)
    for page in (ana, ben):
        expect(page.locator(".player .presence.offline")).to_have_count(0, timeout=WAIT_MS)
    return ana, ben


def armed(page):
    expect(page.locator("#table-live")).to_have_attribute("data-armed", "true", timeout=WAIT_MS)


def mover_of(ana, ben):
    return ana if has_move(ana) else ben


def simple_move(page):
    """What a simple player presses: pass, draw, or drop the highest deadwood (never a knock)."""
    for selector in ("#move-pass", "#move-stock", "#move-pile"):
        if page.locator(selector).count():
            return page.locator(selector)
    cards = page.locator("#table-live .my-hand button.card[data-move]")
    values = [int(value) for value in cards.evaluate_all("cards => cards.map(c => c.dataset.value)")]
    return cards.nth(values.index(max(values)))


def play(ana, ben, moves=1):
    for _ in range(moves):
        mover = mover_of(ana, ben)
        before = version(mover)
        armed(mover)
        simple_move(mover).click()
        expect(mover.locator("#table-error")).to_be_hidden()
        wait_for_version(ana, before + 1)
        wait_for_version(ben, before + 1)


def close(*pages):
    for page in pages:
        page.context.close()


def no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("device", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_it_shows_the_table_on_a_phone_and_a_desktop_without_sideways_scrolling(browser, live_server_url, device,
                                                                                viewport, scheme):
    ana, ben = seated(browser, live_server_url, LONG_NAME, "Bartholomew Featherstone", viewport, scheme)
    play(ana, ben, 4)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, page in (("host", ana), ("friend", ben)):
        expect(page.locator("#felt .table-rules")).to_contain_text("Hollywood")
        assert no_horizontal_scroll(page), f"{device} {scheme}: the page scrolls sideways"
        page.screenshot(path=SCREENSHOTS / f"table-{device}-{scheme}-{name}.png")
    close(ana, ben)
