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


def against_computer(page, base_url, name="Ana", scoring="hollywood"):
    page.goto(f"{base_url}/en/")
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
    """A card pressed, moved onto the target in small steps and let go once SortableJS shows
    it over the target, as a player lets go when they see the card on the pile: the mouse, or a
    finger held until SortableJS picks the card up (its touch delay), through Chromium's own
    touch events (the DevTools protocol). The pile and the hand are both on screen first."""
    target.scroll_into_view_if_needed()
    source.scroll_into_view_if_needed()
    start = visible_middle(source, scroll=False)
    chosen = "() => document.querySelector('#hand-cards .sortable-chosen')"
    over_target = "target => !!target.querySelector('.sortable-chosen, .sortable-ghost')"
    if page.touch:
        cdp = page.context.new_cdp_session(page)
        down = lambda point: cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        move = lambda point: cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        up = lambda: cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        down = lambda point: (page.mouse.move(point["x"], point["y"]), page.mouse.down())
        move = lambda point: page.mouse.move(point["x"], point["y"])
        up = page.mouse.up
    down({"x": start["x"], "y": start["y"]})
    page.wait_for_function(chosen, timeout=WAIT_MS)
    # Where the target is once the card is lifted (lifting it may move the page under it).
    end = visible_middle(target, scroll=False)
    for step in range(1, 21):
        move({"x": start["x"] + (end["x"] - start["x"]) * step / 20, "y": start["y"] + (end["y"] - start["y"]) * step / 20})
    for nudge in range(20):  # a hand held over the pile moves a little until the card shows there
        if target.evaluate(over_target):
            break
        move({"x": end["x"] + (nudge % 5) - 2, "y": end["y"] + (nudge % 3) - 1})
    assert target.evaluate(over_target), "the dragged card never showed over the pile"
    up()


# 2. The deadwood chips -------------------------------------------------------------------------

@ALL_SIZES
def test_it_puts_each_deadwood_figure_on_its_own_card_clear_of_its_rank_with_a_legend(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    to_my_discard(page)
    page.locator("#hand-cards").scroll_into_view_if_needed()
    misplaced = page.locator(f"{DISCARDS} > i").evaluate_all("""chips => chips.filter(chip => {
        const card = chip.closest('[data-card]'), box = chip.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        const rank = card.querySelector('b').getBoundingClientRect();
        const overRank = box.left < rank.right && rank.left < box.right && box.top < rank.bottom && rank.top < box.bottom;
        return !hit || hit.closest('[data-card]') !== card || overRank;
    }).map(chip => chip.closest('[data-card]').dataset.card)""")
    assert misplaced == [], f"{size}: the figure of {misplaced} sits under another card or over its rank"
    expect(page.locator(".hand-legend")).to_be_visible()
    expect(page.locator(".hand-legend")).to_contain_text("your deadwood after discarding it")
    shoot(page, "chips")
    close(page)


# 3. A still hand ------------------------------------------------------------------------------

def hand_top(page):
    return page.evaluate("() => document.getElementById('hand-cards').getBoundingClientRect().top + scrollY")


@ALL_SIZES
def test_it_keeps_the_hand_still_between_drawing_discarding_and_waiting(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    tops = []
    while len(tops) < 12:
        page.wait_for_selector("#move-stock, #move-pass, .hand-end", timeout=WAIT_MS)
        if page.locator(".hand-end").count():
            next_hand(page)  # the computer ended the hand: the next one goes on measuring
            continue
        tops.append(("draw", hand_top(page)))
        cards = to_my_discard(page)
        tops.append(("discard", hand_top(page)))
        armed(page)
        before = version(page)
        cards.first.click()
        cards.first.click()
        wait_for_version(page, before + 1)
        tops.append(("after the discard", hand_top(page)))
    assert max(top for _, top in tops) - min(top for _, top in tops) <= 1, f"{size}: the hand moved: {tops}"
    close(page)


# On the phones, test_turn_controls.py checks the same in every language, with a clock and Oklahoma.
@pytest.mark.parametrize("size", ["desktop"])
def test_it_shows_the_piles_the_whole_hand_and_the_draw_buttons_on_one_screen(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    page.wait_for_selector("#move-stock, #move-pass", timeout=WAIT_MS)
    page.locator("#table-live").scroll_into_view_if_needed()
    extent = page.evaluate("""() => {
        const boxes = ['.pile.stock .card', '#discard-pile', '#actions button'].map(s => document.querySelector(s))
            .concat(Array.from(document.querySelectorAll('#hand-cards [data-card]'))).map(e => e.getBoundingClientRect());
        return {top: Math.min(...boxes.map(b => b.top)), bottom: Math.max(...boxes.map(b => b.bottom)),
                right: Math.max(...boxes.map(b => b.right)), height: innerHeight, width: innerWidth};
    }""")
    assert extent["bottom"] - extent["top"] <= extent["height"], f"{size}: piles, hand and buttons span {extent}"
    assert extent["right"] <= extent["width"]
    page.evaluate("top => scrollBy(0, top - 4)", extent["top"])
    shoot(page, "one-screen", whole=True)
    close(page)


# 4. The phone's Hollywood sheet ----------------------------------------------------------------

@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_it_keeps_every_name_and_number_of_the_hollywood_sheet_whole(browser, live_server_url, size):
    ana = open_table(device(browser, size, locale="de-DE"), live_server_url, LONG_NAME, "hollywood")
    ana.goto(ana.url.replace("/en/", "/de/"))
    bruno = device(browser, size)
    join(bruno, ana.locator("#share-link").input_value(), "Bruno")
    for page in (ana, bruno):
        expect(page.locator(".score-sheet .sheet-name")).to_have_count(6, timeout=WAIT_MS)
        # Scores of three figures in every cell, as a long match has them.
        page.locator(".score-sheet tfoot td:not([colspan])").evaluate_all("cells => cells.forEach(c => { c.textContent = '120'; })")
        broken = page.locator(".score-sheet .sheet-name, .score-sheet tfoot td:not([colspan])").evaluate_all("""cells => cells
            .filter(cell => {
                const upright = cell.querySelector('.sheet-name-text'), text = (upright || cell).firstChild;
                const range = document.createRange(); range.selectNodeContents(text);
                const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round((upright ? r.left : r.top) / 4)));
                return lines.size > 1; })
            .map(cell => cell.textContent.trim())""")
        assert broken == [], f"{size}: broken over lines: {broken}"
        assert page.evaluate("() => { const w = document.querySelector('.sheet-wrap'); return w.scrollWidth <= w.clientWidth; }")
        assert no_horizontal_scroll(page)
    ana.locator("#score-sheet").scroll_into_view_if_needed()
    shoot(ana, "sheet-de")
    close(ana, bruno)


# 5 and 6. The hand's end: in view, and the showdown within a phone's width ----------------------

def to_the_showdown(page):
    """Against the computer: discard the highest card, knock when offered, until a hand ends."""
    for _ in range(200):
        page.wait_for_selector(f"{DISCARDS}, #move-stock, #move-pass, .hand-end", timeout=WAIT_MS)
        if page.locator(".hand-end").count():
            return
        armed(page)
        before = version(page)
        knock = page.locator("#actions .knock")
        if knock.count():
            knock.first.click()
            armed(page)
            knock.first.click()
        elif page.locator(DISCARDS).count():
            cards = page.locator(DISCARDS)
            values = [int(value) for value in cards.evaluate_all("cards => cards.map(c => c.dataset.value)")]
            cards.nth(values.index(max(values))).click()
            cards.nth(values.index(max(values))).click()
        else:
            page.locator("#move-stock, #move-pass").first.click()
        wait_for_version(page, before + 1)
    pytest.fail("no hand ended")


def in_view(page, selector):
    return page.locator(selector).evaluate("e => { const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }")


@ALL_SIZES
def test_it_brings_the_result_and_the_next_hand_into_view_and_the_next_hand_to_the_top(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    to_the_showdown(page)
    expect(page.locator("#showdown .outcome")).to_be_visible()
    page.wait_for_function("() => { const b = document.querySelector('#next-hand').getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }", timeout=WAIT_MS)
    assert in_view(page, "#showdown .outcome"), f"{size}: the result is out of sight"
    shoot(page, "showdown", whole=True)
    armed(page)
    page.click("#next-hand")
    page.wait_for_selector("#felt[data-to-move]", timeout=WAIT_MS)  # the next hand is under way
    page.wait_for_function("() => document.querySelector('.pile.stock .card').getBoundingClientRect().top >= 0", timeout=WAIT_MS)
    close(page)


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
def test_it_keeps_a_showdown_with_a_long_deadwood_within_the_screen(browser, live_server_url, size):
    page = against_computer(device(browser, size), live_server_url)
    to_the_showdown(page)
    # Seven deadwood cards or more for each player, as a defender caught with a full hand has.
    page.locator("#showdown .shown-hand").evaluate_all("""hands => hands.forEach(hand => {
        let group = hand.querySelector('.group.deadwood .cards') || hand.querySelector('.cards');
        while (group.children.length < 8) group.append(group.children[0].cloneNode(true));
    })""")
    assert no_horizontal_scroll(page), f"{size}: the showdown widens the page"
    shoot(page, "long-showdown", whole=True)
    close(page)


# 7. Chat and languages on the phone ------------------------------------------------------------

@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_it_keeps_every_language_in_sight_and_badges_a_new_chat_line(browser, live_server_url, size):
    ana = open_table(device(browser, size), live_server_url, "Ana", "hollywood")
    ben = join(device(browser, size), ana.locator("#share-link").input_value(), "Ben")
    ana.evaluate("() => scrollTo(0, 0)")
    outside = ana.locator(".site-header a").evaluate_all(
        "links => links.filter(a => a.offsetParent && a.getBoundingClientRect().right > innerWidth).map(a => a.textContent)")
    assert outside == [], f"{size}: header links off the screen: {outside}"
    assert ana.evaluate("() => { const h = document.querySelector('.site-header__inner'); return h.scrollWidth <= h.clientWidth; }")
    expect(ana.locator("#chat-badge")).to_be_hidden()
    ben.fill("#chat-text", "Hello!")
    ben.press("#chat-text", "Enter")
    expect(ana.locator("#chat-unread")).to_have_text("1", timeout=WAIT_MS)
    expect(ana.locator("#chat-badge")).to_be_visible()
    expect(ben.locator("#chat-badge")).to_be_hidden()  # one's own line is no news
    shoot(ana, "chat-badge")
    press(ana, ana.locator("#chat-link"))
    expect(ana.locator("#chat-badge")).to_be_hidden(timeout=WAIT_MS)
    close(ana, ben)


# 8. The friend's join form, the page's controls, the computer without a name ---------------------

@pytest.mark.parametrize("size", ["phone"])
def test_it_draws_the_join_form_and_the_tables_buttons_at_a_size_for_fingers(browser, live_server_url, size):
    ana = open_table(device(browser, size), live_server_url, "Ana", "hollywood")
    friend = device(browser, size)
    friend.goto(ana.locator("#share-link").input_value())
    # Fields in 16 px type at least (a phone zooms in on less), every control 44 px high.
    sizes = [page.locator(selector).evaluate(
        "e => [e.id || e.textContent.trim(), e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)]")
        for page, selector in ((friend, "#join-name"), (friend, "form.join button"), (ana, "#share-link"),
                               (ana, ".share .copy"), (ana, "#sound-toggle"), (ana, "#deck-toggle"), (ana, "#chat-link"))]
    fields = {"join-name", "share-link"}
    assert [item for item in sizes if item[1] < 44 or item[2] < (16 if item[0] in fields else 13)] == [], sizes
    shoot(friend, "join")
    ben = join(friend, friend.url, "Ben")
    send = ben.locator("#chat-form button[type=submit]").evaluate("e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)]")
    assert send[0] >= 44 and send[1] >= 16
    close(ana, ben)


def test_it_plays_the_computer_under_a_default_name_when_none_is_typed(browser, live_server_url):
    page = device(browser, "phone")
    page.goto(f"{live_server_url}/en/")
    level = page.locator("label[for=computer-level]").evaluate("e => getComputedStyle(e).borderTopWidth")
    assert level == "0px", "the level's label is drawn like a choice"
    shoot(page, "home", whole=True)
    page.click("form.open-table button[name=against_computer]")
    expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    expect(page.locator(".player.me .name")).to_have_text("Guest")
    close(page)


# 9. Two players of one name ----------------------------------------------------------------------

def test_it_tells_apart_a_player_and_the_computer_of_the_same_name(browser, live_server_url):
    page = against_computer(device(browser, "phone"), live_server_url, name="Cleo", scoring="hand")
    expect(page.locator(".player.opponent .name")).to_have_text("Cleo (computer)")
    expect(page.locator(".player.opponent .computer-tag")).to_have_text("computer")
    expect(page.locator(".player.me .name")).to_have_text("Cleo")
    assert page.locator(".score-sheet .sheet-name").all_inner_texts() == ["Cleo", "Cleo (computer)"]
    to_the_showdown(page)
    outcome = page.locator("#showdown .outcome").inner_text()
    assert "Cleo (computer)" in outcome or outcome.startswith("No winner"), outcome
    close(page)


# 10. The pile, the waiting line, a spectator, the knock card ----------------------------------

def test_it_draws_an_empty_discard_pile_as_an_outline_not_a_blank_card(browser, live_server_url):
    # With the browser tests' seeded deals the computer deals Eva's single hand, so she is
    # offered the upcard first; taking it leaves the pile empty.
    page = against_computer(device(browser, "phone"), live_server_url, name="Eva", scoring="hand")
    expect(page.locator("#move-pass")).to_be_visible(timeout=WAIT_MS)
    armed(page)
    page.click("#move-pile")
    empty = page.locator("#discard-pile .empty-pile")
    expect(empty).to_be_visible(timeout=WAIT_MS)
    assert empty.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    assert empty.evaluate("e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"
    expect(empty).to_have_attribute("aria-label", "The discard pile is empty")
    shoot(page, "empty-pile")
    close(page)


def hand_log_pile(page):
    return page.locator("#log-pile [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")


@pytest.mark.timeout(400)
def test_it_says_whom_it_waits_for_beside_next_hand_and_tells_a_spectator_they_watch(browser, live_server_url):
    ana = open_table(device(browser, "phone"), live_server_url, "Ana", "hollywood")
    ben = join(device(browser, "phone"), ana.locator("#share-link").input_value(), "Ben")
    watcher = device(browser, "phone")
    watcher.goto(ana.url)
    expect(watcher.locator("#spectating")).to_have_text("You are watching this table; only the players can move.")
    expect(ana.locator("#hand-log")).to_be_hidden()  # on the page from the deal, shown from the first move
    knocker = knock_when_possible(ana, ben)
    knock = knocker.locator("#actions .knock").first
    for _press in range(2):
        armed(knocker)
        knock.click()
    expect(ana.locator("#next-hand")).to_be_visible(timeout=WAIT_MS)
    # The knock card lies face down on the pile, and the log says so.
    expect(ana.locator("#knock-card")).to_have_attribute("aria-label", re.compile(r"^The knock card, face down: the "))
    ana.locator("#hand-log summary").click()
    assert re.search(r"(knocked|went gin), laying the .+ face down\.$", ana.locator("#hand-log .moves li").last.inner_text())
    # The log came a line (and a discard) at a time to the pages that watched the hand: each
    # shows what a page opened now shows.
    fresh = device(browser, "phone")
    fresh.goto(ana.url)
    for page in (ana, ben, watcher):
        expect(page.locator("#hand-moves li")).to_have_text(fresh.locator("#hand-moves li").all_text_contents())
        assert hand_log_pile(page) == hand_log_pile(fresh)
    close(fresh)
    ana.locator("#hand-log").scroll_into_view_if_needed()
    shoot(ana, "hand-log-open")
    armed(ana)
    ana.click("#next-hand")
    expect(ana.locator("#waiting-for")).to_have_text("Waiting for Ben to press “Next hand”…", timeout=WAIT_MS)
    assert in_view(ana, "#waiting-for") and in_view(ana, "#next-hand")
    shoot(ana, "waiting")
    close(ana, ben, watcher)


# The turn clock and the audience ------------------------------------------------------------------

@pytest.mark.timeout(300)
def test_it_shows_both_players_and_a_spectator_the_turn_clock_running_and_how_many_watch(browser, live_server_url):
    ana = device(browser, "phone", audited=True)
    ana.goto(f"{live_server_url}/en/")
    ana.fill("#open-name", "Ana")
    ana.check("input[name=clock][value='30']")
    ana.locator(".clock-choice").scroll_into_view_if_needed()
    shoot(ana, "open-with-a-clock")
    ana.click("form.open-table button[name=open_table]")
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    ben = join(device(browser, "phone"), ana.locator("#share-link").input_value(), "Ben")
    watcher = device(browser, "phone")
    watcher.goto(ana.url)
    for page in (ana, ben, watcher):
        expect(page.locator("#turn-clock")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(".table-rules")).to_contain_text("Turn clock: 30 seconds a turn")
    mover, other = (ana, ben) if ana.locator("#turn-clock.mine").count() else (ben, ana)
    mover_name = "Ana" if mover is ana else "Ben"
    expect(mover.locator("#turn-clock")).to_contain_text("Your time:")
    for page in (other, watcher):
        expect(page.locator("#turn-clock")).to_contain_text(f"Time left for {mover_name}:")
    expect(ana.locator("#watching")).to_have_text("1 person watching", timeout=WAIT_MS)
    expect(watcher.locator("#watching")).to_have_text("1 person watching")
    # The page counts down from the deadline the server stored: the seconds go by on screen.
    shown = mover.locator("#turn-clock [data-countdown]")
    first = shown.inner_text()
    assert re.fullmatch(r"[01]:\d\d", first), first
    expect(shown).not_to_have_text(first, timeout=WAIT_MS)
    shoot(mover, "turn-clock")
    shoot(watcher, "turn-clock-watching")
    assert_no_violations({"the turn clock": axe_violations(ana)})
    close(ana, ben, watcher)


# 11. The keyboard --------------------------------------------------------------------------------

def test_it_moves_through_the_hand_with_the_arrows_and_plays_with_single_keys(browser, live_server_url):
    page = against_computer(device(browser, "desktop"), live_server_url)
    page.wait_for_selector("#move-stock, #move-pass", timeout=WAIT_MS)
    if page.locator("#move-pass").count():
        armed(page)
        page.click("#move-pass")
    page.wait_for_selector("#move-stock", timeout=WAIT_MS)
    assert page.locator("#hand-cards [tabindex='0']").count() == 1, "the hand is more than one tab stop"
    expect(page.locator("#keys-note")).to_be_visible()
    expect(page.locator("#move-stock")).to_have_attribute("aria-keyshortcuts", "D")
    armed(page)
    before = version(page)
    page.keyboard.press("d")
    wait_for_version(page, before + 1)
    cards = page.locator(DISCARDS)
    page.wait_for_function("() => document.activeElement.closest('#hand-cards')", timeout=WAIT_MS)
    first = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => document.activeElement.dataset.card")
    assert second != first and second in cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert page.locator("#hand-cards [tabindex='0']").get_attribute("data-card") == second
    page.keyboard.press("Enter")
    expect(page.locator(f"#card-{second}")).to_have_attribute("aria-pressed", "true")
    shoot(page, "keyboard-picked")
    armed(page)
    before = version(page)
    page.keyboard.press("Enter")
    wait_for_version(page, before + 1)
    assert second not in hand_codes(page)
    page.wait_for_function("() => { const e = document.activeElement, b = e.getBoundingClientRect();"
                           " return e.closest('#table-live') && b.width > 0 && b.height > 0 && e.id !== 'controls'; }", timeout=WAIT_MS)
    close(page)


# 12. The archive, and the way to it --------------------------------------------------------------

def test_it_links_a_finished_match_to_its_archive_page_which_uses_the_whole_width(browser, live_server_url):
    page = against_computer(device(browser, "desktop"), live_server_url, scoring="hand")
    to_the_showdown(page)
    expect(page.locator("#archive-link")).to_be_visible(timeout=WAIT_MS)
    page.click("#archive-link")
    expect(page.locator(".archive-showdown").first).to_be_visible(timeout=WAIT_MS)
    widths = page.locator(".archive-showdown").first.evaluate(
        "e => [e.querySelector('.outcome').getBoundingClientRect().width, e.querySelector('.showdown-hands').getBoundingClientRect().width, e.getBoundingClientRect().width]")
    assert widths[1] >= 0.95 * widths[2] and widths[0] >= 0.95 * widths[2], widths
    shoot(page, "archive-match")
    close(page)


def test_it_says_in_the_archive_who_resigned(browser, live_server_url):
    page = against_computer(device(browser, "desktop"), live_server_url, name="Resa", scoring="hollywood")
    # On her own turn: the computer's move, coming between the two presses, would morph the
    # button back to its first press.
    page.wait_for_selector("#resign", timeout=WAIT_MS)
    page.wait_for_selector("#felt[data-my-turn='true']", timeout=WAIT_MS)
    for _press in range(2):
        armed(page)
        page.click("#resign")
    expect(page.locator("#match-result")).to_be_visible(timeout=WAIT_MS)
    page.goto(f"{live_server_url}/en/archive/")
    row = page.locator(".archive-match", has_text="Resa").first
    expect(row.locator(".archive-result")).to_have_text("Cleo won: Resa resigned")
    close(page)


# The four-colour deck and the guided first hand ------------------------------------------------

def test_it_offers_a_four_colour_deck_and_remembers_it(browser, live_server_url):
    page = against_computer(device(browser, "phone"), live_server_url)
    diamond = page.locator("#table-live .card.card--diamonds").first
    expect(diamond).to_be_visible(timeout=WAIT_MS)
    two_colours = diamond.evaluate("e => getComputedStyle(e).color")
    press(page, page.locator("#deck-toggle"))
    expect(page.locator("#deck-toggle")).to_have_attribute("aria-pressed", "true")
    assert diamond.evaluate("e => getComputedStyle(e).color") != two_colours
    page.reload()
    expect(page.locator("#deck-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#table-page")).to_have_class(re.compile(r"\bfour-colours\b"))
    shoot(page, "four-colours")
    close(page)


def test_it_guides_a_first_hand_against_the_computer_step_by_step_and_can_be_skipped(browser, live_server_url):
    # In English: test_turn_controls.py shows the hint in every language.
    page = against_computer(device(browser, "phone"), live_server_url, scoring="hollywood")
    guide = page.locator("#guide")
    expect(guide).to_be_visible(timeout=WAIT_MS)
    steps = set()
    for _ in range(8):
        page.wait_for_selector(f"{DISCARDS}, #move-stock, #move-pass, .hand-end", timeout=WAIT_MS)
        steps.add(guide.get_attribute("data-step"))
        assert guide.locator(".guide-text").inner_text()
        if page.locator(".hand-end").count() or {"draw", "discard"} <= steps:
            break  # the hand is over (the guide says so too), or both steps were shown
        armed(page)
        before = version(page)
        if page.locator(DISCARDS).count():
            card = page.locator(DISCARDS).first
            card.click()  # picks it
            card.click()  # discards it
        else:
            page.locator("#move-stock, #move-pass").first.click()
        wait_for_version(page, before + 1)
    assert {"draw", "discard"} <= steps or "showdown" in steps, steps
    shoot(page, "guide-en")
    page.click("#guide-skip")
    expect(guide).to_be_hidden()
    assert {"name": "guide", "value": "off"}.items() <= next(c for c in page.context.cookies() if c["name"] == "guide").items()
    page.reload()
    expect(page.locator("#table-page")).to_have_class(re.compile(r"\bguide-off\b"))
    expect(page.locator("#guide")).to_be_hidden()
    close(page)


# axe-core in every new state ---------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_it_has_no_accessibility_violations_in_the_new_states(browser, live_server_url, scheme):
    found = {}
    page = against_computer(device(browser, "phone", scheme, audited=True), live_server_url, scoring="hand")
    expect(page.locator("#guide")).to_be_visible(timeout=WAIT_MS)
    found["the guided hand"] = axe_violations(page)
    cards = to_my_discard(page)
    press(page, cards.first)
    expect(cards.first).to_have_attribute("aria-pressed", "true")
    found["a card picked"] = axe_violations(page)
    press(page, page.locator("#deck-toggle"))
    found["the four-colour deck"] = axe_violations(page)
    to_the_showdown(page)
    found["the showdown with the knock card"] = axe_violations(page)
    friend = open_table(device(browser, "phone", scheme, audited=True), live_server_url, "Ana", "hollywood")
    ben = join(device(browser, "phone", scheme), friend.locator("#share-link").input_value(), "Ben")
    ben.fill("#chat-text", "Hello!")
    ben.press("#chat-text", "Enter")
    expect(friend.locator("#chat-badge")).to_be_visible(timeout=WAIT_MS)
    found["a chat badge"] = axe_violations(friend)
    watcher = device(browser, "phone", scheme, audited=True)
    watcher.goto(friend.url)
    expect(watcher.locator("#spectating")).to_be_visible(timeout=WAIT_MS)
    found["a spectator"] = axe_violations(watcher)
    assert_no_violations(found)
    close(page, friend, ben, watcher)
