"""Two people, two browsers, one table: open, share, join, play to the first showdown."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WAIT_MS = 15000
MOVE_PRIORITY = [
    "#table-live .actions .knock",
    "#table-live .actions [data-move='pass']",
    "#table-live .actions [data-move='stock']",
    "#table-live .actions [data-move='pile']",
]


def version(page):
    return int(page.locator("#table-live").get_attribute("data-version"))


def wait_for_version(page, at_least):
    page.wait_for_function(
        "v => Number(document.getElementById('table-live').dataset.version) >= v", arg=at_least, timeout=WAIT_MS,
    )


def play_one_move(page):
    """Click what a simple player would: knock, pass, draw, or drop the highest deadwood."""
    for selector in MOVE_PRIORITY:
        button = page.locator(selector)
        if button.count():
            button.first.click()
            return
    cards = page.locator("#table-live .my-hand button.card.deadwood")
    if not cards.count():
        cards = page.locator("#table-live .my-hand button.card")
    values = [int(value) for value in cards.evaluate_all("cards => cards.map(c => c.dataset.value)")]
    cards.nth(values.index(max(values))).click()


def has_move(page):
    return page.locator("#table-live [data-move]").count() > 0


def test_it_plays_a_hand_between_two_browsers_until_the_showdown(browser, live_server_url):
    ana = browser.new_context().new_page()
    ben = browser.new_context().new_page()
    ana.goto(f"{live_server_url}/en/")
    ana.fill("#open-name", "Ana")
    ana.click("form.open-table button[type=submit]")
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    share_link = ana.locator("#share-link").input_value()

    ben.goto(share_link)
    ben.fill("#join-name", "Ben")
    ben.click("form.join button[type=submit]")
    for page in (ana, ben):
        expect(page.locator(".player .presence.offline")).to_have_count(0, timeout=WAIT_MS)

    for _ in range(200):
        if ana.locator("#showdown").count() and ben.locator("#showdown").count():
            break
        mover = ana if has_move(ana) else ben
        before = version(mover)
        play_one_move(mover)
        wait_for_version(ana, before + 1)
        wait_for_version(ben, before + 1)
    expect(ana.locator("#showdown .outcome")).not_to_be_empty()
    assert ana.locator("#score-sheet").inner_text() == ben.locator("#score-sheet").inner_text()
    assert "Ana" in ana.locator("#score-sheet").inner_text()
    ana.screenshot(path="/tmp/hollywood-ana.png", full_page=True)
    ben.context.close()
    ana.context.close()


def test_it_continues_a_seat_on_another_device_by_the_private_link(browser, live_server_url):
    ana = browser.new_context().new_page()
    ana.goto(f"{live_server_url}/en/")
    ana.fill("#open-name", "Ana")
    ana.click("form.open-table button[type=submit]")
    private_link = ana.locator(".claim input").input_value()
    assert "#seat=" in private_link

    other_device = browser.new_context().new_page()
    other_device.goto(private_link)
    expect(other_device.locator(".player.me .name")).to_have_text("Ana", timeout=WAIT_MS)
    expect(other_device.locator(".my-hand")).to_be_visible()
    assert "#seat=" not in other_device.url
    other_device.context.close()
    ana.context.close()
