"""Issue 21: the table on a phone, where a tap is a promise. Each defect of the issue on the
sizes it is about: a 390×844 phone and an 844×390 landscape phone, both touch, and a 1280×800
desktop with a mouse; screenshots in test-results/screenshots/ (looked at before a fix is
called one)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, hand_codes, version, wait_for_version
from tests.browser.test_table import (
    AXE, DESKTOP, LONG_NAME, PHONE, SCREENSHOTS, armed, assert_no_violations, axe_violations, close, join,
    knock_when_possible, no_horizontal_scroll, open_table,
)

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
SIZES = {"phone": (PHONE, True), "landscape": (LANDSCAPE, True), "desktop": (DESKTOP, False)}
ALL_SIZES = pytest.mark.parametrize("size", list(SIZES))
DISCARDS = "#table-live .my-hand button.card[data-move^='discard']"


def device(browser, size, scheme="light", audited=False, locale=None):
    """A page on `size`: the phones are touch screens (a tap is a touch), the desktop a mouse."""
    viewport, touch = SIZES[size]
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch, color_scheme=scheme,
                                  reduced_motion="reduce", bypass_csp=audited, locale=locale)
    page = context.new_page()
    page.size, page.touch = size, touch
    page.script_errors = []
    page.on("pageerror", lambda error: page.script_errors.append(str(error)))
    return page


def against_computer(page, base_url, name="Ana", scoring="hollywood", language="en"):
    page.goto(f"{base_url}/{language}/")
    page.fill("#open-name", name)
    page.check(f"input[name=scoring][value={scoring}]")
    page.click("form.open-table button[name=against_computer]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    return page


def shoot(page, name, whole=False):
    """The screen as the player sees it now, and with `whole` the whole page too."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"issue21-{name}-{page.size}.png")
    if whole:
        page.screenshot(path=SCREENSHOTS / f"issue21-{name}-{page.size}-whole.png", full_page=True)


def press(page, locator):
    """A tap on a touch screen, a click with the mouse: at the middle of what is in sight."""
    point = visible_middle(locator)
    if page.touch:
        page.touchscreen.tap(point["x"], point["y"])
    else:
        page.mouse.click(point["x"], point["y"])


def visible_middle(locator, scroll=True):
    """The middle of the part of an element not covered by another (a card under its
    neighbour), and how wide that part is, found by asking the page what is at each point."""
    if scroll:
        locator.scroll_into_view_if_needed()
    return locator.evaluate("""element => {
        const box = element.getBoundingClientRect(), y = box.top + box.height / 2, xs = [];
        for (let x = Math.ceil(box.left); x < box.right; x++) {
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === element || element.contains(hit))) xs.push(x);
        }
        return {x: xs.length ? (xs[0] + xs[xs.length - 1]) / 2 : box.left, y: y, width: xs.length};
    }""")


def next_hand(page):
    for button in ("#next-hand", "#rematch"):
        if page.locator(f"{button}:not([disabled])").count():
            armed(page)
            page.click(button)
            expect(page.locator(".hand-end")).to_have_count(0, timeout=WAIT_MS)
            return


def to_my_discard(page):
    """Against the computer: press what is needed (a new hand, pass or draw) until this player
    may discard; the cards it may discard."""
    for _ in range(50):
        page.wait_for_selector(f"{DISCARDS}, #move-stock, #move-pass, .hand-end", timeout=WAIT_MS)
        if page.locator(".hand-end").count():
            next_hand(page)
            continue
        if page.locator(DISCARDS).count():
            armed(page)
            return page.locator(DISCARDS)
        armed(page)
        before = version(page)
        page.locator("#move-stock, #move-pass").first.click()
        wait_for_version(page, before + 1)
    pytest.fail("never this player's turn to discard")


def picked(page):
    return page.locator("#hand-cards .card.picked").evaluate_all("cards => cards.map(c => c.dataset.card)")


@ALL_SIZES
def test_it_discards_the_card_tapped_at_the_middle_of_what_shows_of_it_after_a_second_tap(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    for position in range(11):
        cards = to_my_discard(page)
        card = cards.nth(position % cards.count())
        code = card.get_attribute("data-card")
        point = visible_middle(card)
        assert point["width"] >= 40, f"{size}: only {point['width']} px of {code} in sight"
        before = version(page)
        press(page, card)
        expect(card).to_have_class(re.compile(r"\bpicked\b"))
        expect(card).to_have_attribute("aria-pressed", "true")
        assert picked(page) == [code] and version(page) == before, "a first tap played a move"
        if position == 0:
            shoot(page, "picked", whole=True)
        # The second tap on the card itself, or on the pile, every other time.
        press(page, card if position % 2 else page.locator("#discard-pile .pile-fan"))
        wait_for_version(page, before + 1)
        assert code not in hand_codes(page), f"{size}: tapped {code}, discarded another card"
    assert not page.script_errors, page.script_errors
    close(page)


@ALL_SIZES
def test_it_lets_a_mis_tap_cost_nothing(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    cards = to_my_discard(page)
    first, second = cards.nth(0), cards.nth(1)
    before = version(page)
    press(page, first)
    press(page, second)  # the wrong card first: the right one is picked instead, nothing played
    assert picked(page) == [second.get_attribute("data-card")]
    press(page, page.locator("#status-line"))  # a tap beside the cards lets go of it
    assert picked(page) == [] and version(page) == before
    close(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_it_discards_a_card_dragged_onto_the_pile_by_mouse_or_by_touch(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    card = to_my_discard(page).last
    code = card.get_attribute("data-card")
    before = version(page)
    drag(page, card, page.locator("#discard-pile .pile-fan"))
    wait_for_version(page, before + 1)
    assert code not in hand_codes(page)
    close(page)


def drag(page, source, target):
    """A card pressed, moved onto the target in small steps and let go: the mouse, or a finger
    held until SortableJS picks the card up (its touch delay), through Chromium's own touch
    events (the DevTools protocol). The pile and the hand are both on screen first."""
    target.scroll_into_view_if_needed()
    source.scroll_into_view_if_needed()
    start, end = visible_middle(source, scroll=False), visible_middle(target, scroll=False)
    steps = [{"x": start["x"] + (end["x"] - start["x"]) * step / 12, "y": start["y"] + (end["y"] - start["y"]) * step / 12}
             for step in range(1, 13)]
    chosen = "() => document.querySelector('#hand-cards .sortable-chosen')"
    if not page.touch:
        page.mouse.move(start["x"], start["y"])
        page.mouse.down()
        page.wait_for_function(chosen, timeout=WAIT_MS)
        for point in steps:
            page.mouse.move(point["x"], point["y"])
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)

    def touch(kind, point=None):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [point] if point else []})

    touch("touchStart", {"x": start["x"], "y": start["y"]})
    page.wait_for_function(chosen, timeout=WAIT_MS)
    for point in steps:
        touch("touchMove", point)
    touch("touchEnd")
