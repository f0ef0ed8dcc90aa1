"""Issue 42: the showdown as a player meets it on a phone held sideways: your own seat stays
one line beside the piles, not a large empty panel."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import close, computer_table, device, shoot
from tests.browser.test_phone_table import to_the_showdown

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["landscape", "desktop"])
def test_it_keeps_your_own_seat_one_line_high_at_the_showdown(browser, live_server_url, size):
    page = computer_table(device(browser, size), live_server_url, guide=False)
    to_the_showdown(page)
    expect(page.locator("#showdown .outcome")).to_be_visible()
    seat, line = page.locator("#my-seat").bounding_box(), page.locator("#my-seat .player-line").bounding_box()
    assert seat["height"] <= line["height"] + 12, f"{size}: your seat is {seat['height']} px high for a {line['height']} px line"
    shoot(page, "showdown")
    close(page)
