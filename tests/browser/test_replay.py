"""Issue 42: an archived hand's replay as a reader steps through it: "Next move" stays where
it was when "Previous move" appears, and the arrow keys step as the buttons do."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    DISCARDS, WAIT_MS, armed, close, computer_table, device, to_my_discard, version, wait_for_version,
)

pytestmark = pytest.mark.browser


def a_few_moves_then_resign(page):
    """A discard of the player's, the computer's answer, then a resignation: an archived hand
    of a few moves."""
    cards = to_my_discard(page)
    before = version(page)
    cards.first.click()
    cards.first.click()
    wait_for_version(page, before + 1)
    # Resigned on the player's own turn or at the showdown (this deal's computer knocks here):
    # no move of the computer's comes between the two presses to morph the button back.
    page.wait_for_selector("#felt[data-my-turn='true'], .hand-end", state="attached", timeout=WAIT_MS)
    for _press in range(2):
        armed(page)
        page.click("#resign")
    expect(page.locator("#match-result")).to_be_visible(timeout=WAIT_MS)


def next_move_x(page):
    return page.locator("#replay-next").evaluate("e => Math.round(e.getBoundingClientRect().right)")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_it_keeps_next_move_in_its_place_and_steps_with_the_arrow_keys(browser, live_server_url, size):
    page = computer_table(device(browser, size), live_server_url, name="Rita", guide=False)
    a_few_moves_then_resign(page)
    page.goto(f"{live_server_url}/en/archive/")
    page.locator(".archive-match", has_text="Rita").first.locator("a[href*='/matches/']").first.click()
    page.goto(page.url.split("#")[0].split("?")[0] + "?hand=1&step=0#replay")
    meta = page.locator("#replay .archive-meta")
    expect(meta).to_contain_text("Move 0 of")
    alone = next_move_x(page)
    page.click("#replay-next")
    expect(meta).to_contain_text("Move 1 of", timeout=WAIT_MS)
    expect(page.locator("#replay-previous")).to_be_visible()
    assert next_move_x(page) == alone, "Next move jumped when Previous move appeared"
    page.locator("body").press("ArrowRight")
    expect(meta).to_contain_text("Move 2 of", timeout=WAIT_MS)
    page.locator("body").press("ArrowLeft")
    expect(meta).to_contain_text("Move 1 of", timeout=WAIT_MS)
    close(page)
