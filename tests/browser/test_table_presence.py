"""Issue 42: who is at the table, as a player on a phone meets it: a spectator coming or going
and a lost connection move nothing under a finger, and your own seat says "offline" while
your page has lost the server."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WAIT_MS, close, device, shoot, two_players

pytestmark = pytest.mark.browser


def hand_top(page):
    """Where the hand is on the screen (not on the page): what a finger aims at."""
    return page.evaluate("() => Math.round(document.getElementById('hand-cards').getBoundingClientRect().top)")


def test_it_keeps_the_hand_still_when_a_spectator_comes_and_goes_or_the_connection_is_lost(browser, restartable_server):
    ana, ben = two_players(browser, restartable_server.url, "phone")
    expect(ana.locator("#hand-cards")).to_be_visible(timeout=WAIT_MS)
    still = hand_top(ana)
    watcher = device(browser, "phone")
    watcher.goto(ana.url)
    expect(ana.locator("#watching")).to_have_text("1 person watching", timeout=WAIT_MS)
    assert hand_top(ana) == still, "a spectator's arrival moved the hand"
    close(watcher)
    expect(ana.locator("#watching")).to_have_text("", timeout=WAIT_MS)
    assert hand_top(ana) == still, "a spectator's leaving moved the hand"
    restartable_server.stop()
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "disconnected", timeout=WAIT_MS)
    assert hand_top(ana) == still, "'Connection lost' moved the hand"
    expect(ana.locator("#my-seat .presence:visible")).to_have_text("offline")
    shoot(ana, "connection-lost")
    restartable_server.start()
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    expect(ana.locator("#my-seat .presence:visible")).to_have_text("online")
    assert hand_top(ana) == still
    close(ana, ben)


def test_it_counts_one_person_watching_in_two_tabs_as_one(browser, live_server_url):
    ana, ben = two_players(browser, live_server_url)
    watcher = device(browser, "desktop")
    watcher.goto(ana.url)
    expect(ana.locator("#watching")).to_have_text("1 person watching", timeout=WAIT_MS)
    second_tab = watcher.context.new_page()
    second_tab.goto(ana.url)
    expect(second_tab.locator("#watching")).to_have_text("1 person watching", timeout=WAIT_MS)
    other = device(browser, "desktop")
    other.goto(ana.url)
    expect(ana.locator("#watching")).to_have_text("2 people watching", timeout=WAIT_MS)
    close(other)
    expect(ana.locator("#watching")).to_have_text("1 person watching", timeout=WAIT_MS)
    close(watcher, ana, ben)
