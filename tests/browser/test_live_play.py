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


def armed(page):
    """table.js acts on a state only once it has been on screen a moment (a double tap
    must not play two moves); it says so in data-armed."""
    page.wait_for_function("() => document.getElementById('table-live').dataset.armed === 'true'", timeout=WAIT_MS)


def play_one_move(page):
    """Click what a simple player would: knock (which asks for a second press), pass,
    draw, or drop the highest deadwood."""
    armed(page)
    for selector in MOVE_PRIORITY:
        button = page.locator(selector)
        if button.count():
            button.first.click()
            if "knock" in selector:
                armed(page)
                button.first.click()
            return
    cards = page.locator("#table-live .my-hand button.card.deadwood")
    if not cards.count():
        cards = page.locator("#table-live .my-hand button.card")
    values = [int(value) for value in cards.evaluate_all("cards => cards.map(c => c.dataset.value)")]
    card = cards.nth(values.index(max(values)))
    card.click()  # picks the card
    card.click()  # discards it


def has_move(page):
    return page.locator("#table-live [data-move]").count() > 0


def open_a_table(browser, base_url, name):
    """In a browser of its own, someone opens a table from the home page."""
    page = browser.new_context().new_page()
    page.goto(f"{base_url}/en/")
    page.fill("#open-name", name)
    page.click("form.open-table button[name=open_table]")
    return page


def sit_down(browser, base_url):
    """Ana opens a table from the home page, Ben joins by the share link; both online."""
    ana = open_a_table(browser, base_url, "Ana")
    ben = browser.new_context().new_page()
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    ben.goto(ana.locator("#share-link").input_value())
    ben.fill("#join-name", "Ben")
    ben.click("form.join button[type=submit]")
    for page in (ana, ben):
        expect(page.locator(".player .presence.offline")).to_have_count(0, timeout=WAIT_MS)
    return ana, ben


def play_and_wait(ana, ben):
    mover = ana if has_move(ana) else ben
    before = version(mover)
    play_one_move(mover)
    wait_for_version(ana, before + 1)
    wait_for_version(ben, before + 1)


def hand_codes(page):
    return sorted(page.locator("#table-live .my-hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)"))


def play_to_the_showdown(ana, ben):
    for _ in range(200):
        if ana.locator("#showdown").count() and ben.locator("#showdown").count():
            return
        play_and_wait(ana, ben)


def test_it_plays_a_hand_between_two_browsers_until_the_showdown(browser, live_server_url):
    ana, ben = sit_down(browser, live_server_url)
    play_to_the_showdown(ana, ben)
    expect(ana.locator("#showdown .outcome")).not_to_be_empty()
    assert ana.locator("#score-sheet").inner_text() == ben.locator("#score-sheet").inner_text()
    assert "Ana" in ana.locator("#score-sheet").inner_text()
    ana.screenshot(path="/tmp/hollywood-ana.png", full_page=True)
    ben.context.close()
    ana.context.close()


def press_next_hand_together(ana, ben):
    """Both press "Next hand" at the showdown, each before hearing of the other's press; returns
    once both pages show the next hand."""
    showdown = version(ana)
    armed(ana)
    armed(ben)
    ana.click("#table-live [data-action='next_hand']")
    ben.click("#table-live [data-action='next_hand']")
    for page in (ana, ben):
        wait_for_version(page, showdown + 1)
        expect(page.locator("#showdown")).to_have_count(0, timeout=WAIT_MS)


def test_it_deals_the_next_hand_when_both_players_press_it_from_the_showdown(browser, live_server_url):
    ana, ben = sit_down(browser, live_server_url)
    play_to_the_showdown(ana, ben)
    # Ben presses before his page can have heard of Ana's press: both clicks must count.
    press_next_hand_together(ana, ben)
    for page in (ana, ben):
        expect(page.locator("#table-error")).to_be_hidden()
        assert len(hand_codes(page)) in (10, 11)
    ben.context.close()
    ana.context.close()


def test_it_continues_a_seat_on_another_device_by_the_private_link(browser, live_server_url):
    ana = open_a_table(browser, live_server_url, "Ana")
    private_link = ana.locator(".claim input[readonly]").input_value()
    assert "#seat=" in private_link

    other_device = browser.new_context().new_page()
    other_device.goto(private_link)
    expect(other_device.locator(".player.me .name")).to_have_text("Ana", timeout=WAIT_MS)
    expect(other_device.locator(".my-hand")).to_be_visible()
    assert "#seat=" not in other_device.url
    other_device.context.close()
    ana.context.close()


def test_it_continues_at_the_same_card_after_the_server_restarts(browser, restartable_server):
    ana, ben = sit_down(browser, restartable_server.url)
    for _ in range(3):
        play_and_wait(ana, ben)
    before = {"version": version(ana), "ana": hand_codes(ana), "ben": hand_codes(ben)}

    restartable_server.stop()
    for page in (ana, ben):
        expect(page.locator("#connection-status")).to_have_attribute("data-state", "disconnected", timeout=WAIT_MS)
    restartable_server.start()
    for page in (ana, ben):
        expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)

    assert (version(ana), hand_codes(ana), hand_codes(ben)) == (before["version"], before["ana"], before["ben"])
    play_and_wait(ana, ben)
    assert version(ben) == before["version"] + 1
    ana.context.close()
    ben.context.close()


def test_it_carries_a_player_identity_to_another_device_by_the_private_link(browser, live_server_url):
    ana = open_a_table(browser, live_server_url, "Ana")
    token = next(cookie["value"] for cookie in ana.context.cookies() if cookie["name"] == "player")

    other_device = browser.new_context().new_page()
    other_device.goto(f"{live_server_url}/en/players/claim/#player={token}")
    # Claimed: the player's own page, which shows the private link only to its owner.
    expect(other_device.locator("h1")).to_have_text("Ana", timeout=WAIT_MS)
    expect(other_device.locator(".archive-private-link")).to_have_value(
        f"{live_server_url}/en/players/claim/#player={token}")
    assert "#player=" not in other_device.url
    other_device.context.close()
    ana.context.close()


def test_it_plays_a_hand_against_the_computer_after_one_click_from_the_home_page(browser, live_server_url):
    page = browser.new_context().new_page()
    page.goto(f"{live_server_url}/en/")
    page.fill("#open-name", "Ana")
    page.click("form.open-table button[name=against_computer]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    for _ in range(200):
        if page.locator("#showdown").count():
            break
        # Ana's turn, or the computer's reply to come: play when a move is offered.
        page.wait_for_selector("#table-live [data-move], #showdown", timeout=WAIT_MS)
        if page.locator("#showdown").count():
            break
        before = version(page)
        play_one_move(page)
        wait_for_version(page, before + 1)
    expect(page.locator("#showdown .outcome")).not_to_be_empty()
    assert "Cleo" in page.locator("#score-sheet").inner_text()  # the club player, the form's default
    page.context.close()
