"""Issue 42: the turn clock says what the player has, as a chess clock does: the turn's own
seconds, then the bank apart ("0:30 + 1:00 bank"), not the two added up without a word."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WAIT_MS, close, computer_table, device, shoot

pytestmark = pytest.mark.browser

TURN_SECONDS, BANK = 30, "1:00"  # the table's clock, and GAMES_CLOCK_BANK_SECONDS


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_it_shows_the_turns_own_seconds_then_the_bank_apart(browser, live_server_url, size):
    page = computer_table(device(browser, size), live_server_url, clock=TURN_SECONDS, guide=False)
    clock = page.locator("#turn-clock.mine")
    expect(clock).to_have_text(re.compile(rf"^Your time: 0:(30|2\d) \+ {BANK} bank$"), timeout=WAIT_MS)
    turn, bank = clock.locator("[data-countdown]"), clock.locator("[data-bank]")
    # The turn's seconds run down while the bank waits for them to run out.
    expect(turn).not_to_have_text(turn.inner_text(), timeout=WAIT_MS)
    expect(bank).to_have_text(BANK)
    shoot(page, "clock")
    close(page)
