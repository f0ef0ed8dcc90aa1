"""The table as a player meets it, in Chromium: phone and desktop, light and dark, the
keyboard alone, a double tap, a dragged hand, chat, a claim, a rematch and axe-core."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, hand_codes, has_move, version, wait_for_version
from tests.browser.test_live_play import armed as armed_at_last

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-results" / "screenshots"  # gitignored: the test output
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG_NAME = "Maximiliana Wolkenstein!"  # 24 characters

# Playing simple moves until someone may knock takes up to a few hundred moves (each shown a
# moment before table.js lets it be played, GAMES_MIN_SEEN_SECONDS, near zero here): more than
# the suite's 120 s default on a busy machine.
UNTIL_A_KNOCK = pytest.mark.timeout(400)


def new_page(browser, viewport=DESKTOP, scheme="light", audited=False):
    # `audited`: the page gets axe-core, the test's own script, which the site's strict CSP would
    # refuse as inline; what the site itself runs under that CSP is tests/browser/test_security_policy.py's.
    context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce", bypass_csp=audited)
    page = context.new_page()
    page.script_errors = []
    page.on("pageerror", lambda error: page.script_errors.append(str(error)))
    return page


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
    assert not page.script_errors, page.script_errors
    armed_at_last(page)


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
        press_move(simple_move(mover))
        expect(mover.locator("#table-error")).to_be_hidden()
        wait_for_version(ana, before + 1)
        wait_for_version(ben, before + 1)


def press_move(target):
    """Press a move's control: a card is picked by a first press and discarded by a second."""
    card = target.get_attribute("data-card")  # read first: a draw button is gone once pressed
    target.click()
    if card:
        target.click()


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
        # The whole Hollywood sheet fits, Game 3 included, and no name is cut to "Ma…".
        assert page.evaluate("() => { const w = document.querySelector('.sheet-wrap'); return w.scrollWidth <= w.clientWidth; }")
        names = page.locator(".score-sheet .sheet-name").evaluate_all("cells => cells.map(c => c.scrollWidth <= c.clientWidth)")
        assert all(names), f"{device}: a name is cut in the score sheet"
        page.screenshot(path=SCREENSHOTS / f"table-{device}-{scheme}-{name}.png")
        page.screenshot(path=SCREENSHOTS / f"table-{device}-{scheme}-{name}-whole.png", full_page=True)
    close(ana, ben)


def settle(page):
    """Wait until every frame this page sent has been answered: a sort round-trip goes
    through the same socket, after whatever a double tap sent before it."""
    answered = page.evaluate("() => document.getElementById('table-live').dataset.version")
    page.locator("#table-live .sort [data-sort='melds']").click() if page.locator(".sort").count() else None
    wait_for_version(page, int(answered))


def focused_in_table(page):
    return page.evaluate("() => !!document.activeElement.closest('#table-live')")


def tab_to(page, element_id, limit=80):
    for _ in range(limit):
        if page.evaluate("() => document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached #{element_id}")


def test_it_plays_a_whole_hand_with_the_keyboard_alone_and_announces_the_opponents_moves(browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    ana.locator("#hand-cards [tabindex='0']").focus()
    names = {"ana": "Ana", "ben": "Ben"}
    announced = 0
    for _ in range(120):
        if ana.locator("#showdown").count():
            break
        mover = mover_of(ana, ben)
        before = version(mover)
        armed(mover)
        target = simple_move(mover)
        if mover is ana and target.get_attribute("data-card"):
            # The hand is one tab stop: Tab to it, the arrows to the card, Enter picks, Enter discards.
            tab_to(ana, ana.locator("#hand-cards [tabindex='0']").get_attribute("id"))
            for _ in range(12):
                if ana.evaluate("() => document.activeElement.id") == target.get_attribute("id"):
                    break
                ana.keyboard.press("ArrowRight")
            ana.keyboard.press("Enter")
            ana.keyboard.press("Enter")
        elif mover is ana:
            tab_to(ana, target.get_attribute("id"))
            ana.keyboard.press("Enter")
        else:
            press_move(target)
        wait_for_version(ana, before + 1)
        wait_for_version(ben, before + 1)
        assert focused_in_table(ana), "focus fell out of the table after an update"
        if mover is ben:
            expect(ana.locator("#announcer")).to_contain_text(names["ben"])
            announced += 1
    expect(ana.locator("#showdown")).to_be_visible()
    assert announced > 5
    close(ana, ben)


def test_it_plays_one_move_for_a_double_tap(browser, guarded_server_url):
    # The guard as production has it (0.4 s): a double tap's second tap lands well within it.
    ana, ben = seated(browser, guarded_server_url, viewport=PHONE)
    for _ in range(8):
        mover = mover_of(ana, ben)
        before = version(mover)
        armed(mover)
        target = simple_move(mover)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        mover.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wait_for_version(mover, before + 1)
        armed(mover)
        settle(mover)
        assert version(mover) == before + 1, "the second tap played a move too"
        assert version(ana if mover is ben else ben) == before + 1
    close(ana, ben)


@UNTIL_A_KNOCK
def test_it_asks_for_a_second_press_before_a_knock(browser, live_server_url):
    ana, ben = seated(browser, live_server_url, scoring="hand")
    knocker = knock_when_possible(ana, ben)
    before = version(knocker)
    knock = knocker.locator("#table-live .actions .knock").first
    armed(knocker)
    knock.click()
    expect(knock).to_have_attribute("data-confirming", "true")
    settle(knocker)
    assert version(knocker) == before  # one press changed nothing
    armed(knocker)
    knock.click()
    expect(knocker.locator("#showdown")).to_be_visible(timeout=WAIT_MS)
    close(ana, ben)


def knock_out(ana, ben):
    """Play until someone may knock, then knock with both presses: the hand (a single
    hand: the match) ends."""
    knocker = knock_when_possible(ana, ben)
    knock = knocker.locator("#table-live .actions .knock").first
    for _press in range(2):
        armed(knocker)
        knock.click()


def knock_when_possible(ana, ben):
    """Play simple moves until one player may knock; that player's page."""
    for _ in range(300):
        for page in (ana, ben):
            if page.locator("#table-live .actions .knock").count():
                return page
        play(ana, ben)
    pytest.fail("nobody could knock")


def test_it_keeps_a_dragged_hand_in_its_order_after_a_reload(browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    cards = ana.locator("#hand-cards [data-card]")
    before = cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
    cards.last.drag_to(cards.first, target_position={"x": 2, "y": 10})
    expect(ana.locator(".sort [aria-pressed='true']")).to_have_count(0, timeout=WAIT_MS)
    dragged = cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert dragged != before and sorted(dragged) == sorted(before)
    ana.reload()
    # The first paint, before the socket: already in the dragged order.
    assert ana.locator("#hand-cards [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)") == dragged
    expect(ana.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
    play(ana, ben, 2)
    kept = [code for code in ana.locator("#hand-cards [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)") if code in dragged]
    assert kept == [code for code in dragged if code in kept]
    close(ana, ben)


def test_it_carries_chat_between_the_two_players(browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    before = version(ana)
    ana.fill("#chat-text", "Good luck! <b>not bold</b>")
    ana.press("#chat-text", "Enter")
    expect(ben.locator("#chat-lines li").last).to_have_text("Ana Good luck! <b>not bold</b>", timeout=WAIT_MS)
    ben.click("#chat-form [data-say='Nice move!']")
    expect(ana.locator("#chat-lines li").last).to_have_text("Ben Nice move!", timeout=WAIT_MS)
    assert ben.locator("#chat-lines b").count() == 0 and version(ana) == before
    close(ana, ben)


def test_it_lets_a_player_claim_the_match_after_the_opponent_leaves(browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    if has_move(ana):
        play(ana, ben)  # Ben is to move when he leaves
    ben.context.close()
    claim = ana.locator("#claim-match")
    expect(claim).to_be_visible(timeout=WAIT_MS)
    armed(ana)
    claim.click()
    expect(claim).to_have_attribute("data-confirming", "true")
    armed(ana)
    claim.click()
    expect(ana.locator("#match-result")).to_have_text("Ben left the table: Ana claimed the match.", timeout=WAIT_MS)
    expect(ana.locator("#rematch")).to_be_visible()
    close(ana)


@UNTIL_A_KNOCK
def test_it_starts_a_rematch_when_both_press_it_and_keeps_the_running_score(browser, live_server_url):
    ana, ben = seated(browser, live_server_url, scoring="hand")
    knock_out(ana, ben)
    for page in (ana, ben):
        expect(page.locator("#match-result")).to_be_visible(timeout=WAIT_MS)
    winner = ana.locator("#match-result").inner_text().split()[0]
    armed(ana)
    ana.click("#rematch")
    expect(ana.locator("#waiting-for")).to_have_text("Waiting for Ben to accept the rematch…", timeout=WAIT_MS)
    expect(ben.locator("#waiting-for")).to_have_text("Ana would like a rematch.", timeout=WAIT_MS)
    armed(ben)
    ben.click("#rematch")
    score = "Matches: Ana 1 – 0 Ben" if winner == "Ana" else "Matches: Ana 0 – 1 Ben"
    for page in (ana, ben):
        expect(page.locator("#showdown")).to_have_count(0, timeout=WAIT_MS)
        expect(page.locator(".table-wins")).to_have_text(score)
    close(ana, ben)


# axe-core, vendored from npm (tests/browser/vendor/axe-core, with its licence) ----------------

def axe_violations(page):
    # Once a page: a new state arrives by morphing, not by loading, and axe-core is 500 KB of
    # script for the browser to parse again.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const results = await axe.run(document, {resultTypes: ["violations"]});
        return results.violations.map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).slice(0, 4).join(", "));
    }""")
    return found


PAGES = ["/en/", "/en/how-to-play/", "/en/hollywood-scoring/", "/en/history/", "/en/archive/", "/de/", "/cs/archive/"]


def assert_no_violations(found):
    failures = {where: violations for where, violations in found.items() if violations}
    assert not failures, "\n".join(f"{where}: {violations}" for where, violations in failures.items())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_it_has_no_accessibility_violations_on_any_page(browser, live_server_url, scheme):
    visitor = new_page(browser, DESKTOP, scheme, audited=True)
    found = {}
    for path in PAGES:
        visitor.goto(live_server_url + path)
        found[path] = axe_violations(visitor)
    visitor.goto(live_server_url + "/en/archive/")
    links = visitor.locator("main a").evaluate_all("links => links.map(a => a.href)")
    for link in [link for link in links if "/matches/" in link][:2] + [link for link in links if "/players/" in link][:2]:
        visitor.goto(link)
        found[link.removeprefix(live_server_url)] = axe_violations(visitor)
    assert_no_violations(found)
    close(visitor)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@UNTIL_A_KNOCK
def test_it_has_no_accessibility_violations_in_any_table_state(browser, live_server_url, scheme):
    found = {}
    ana = open_table(new_page(browser, PHONE, scheme, audited=True), live_server_url, "Ana", "hand")
    found["waiting for a friend"] = axe_violations(ana)
    friend = new_page(browser, PHONE, scheme, audited=True)
    friend.goto(ana.locator("#share-link").input_value())
    found["the invited friend"] = axe_violations(friend)
    ben = join(friend, friend.url)
    for page in (ana, ben):
        expect(page.locator(".player .presence.offline")).to_have_count(0, timeout=WAIT_MS)
    play(ana, ben, 3)
    found["playing"] = axe_violations(ana) + axe_violations(ben)
    ana.locator("#hand-log summary").click()
    found["the hand's moves open"] = axe_violations(ana)
    knocker = knock_when_possible(ana, ben)
    knock = knocker.locator("#table-live .actions .knock").first
    armed(knocker)
    knock.click()
    found["knock asks again"] = axe_violations(knocker)
    armed(knocker)
    knock.click()
    expect(ana.locator("#match-result")).to_be_visible(timeout=WAIT_MS)
    found["match over"] = axe_violations(ana)
    assert_no_violations(found)
    close(ana, ben)


def test_it_turns_the_target_choice_off_for_a_single_hand(browser, live_server_url):
    page = new_page(browser, PHONE)
    page.goto(f"{live_server_url}/en/")
    page.check("input[name=scoring][value=hand]")
    expect(page.locator(".target-choice input").first).to_be_disabled()
    page.check("input[name=scoring][value=hollywood]")
    expect(page.locator(".target-choice input").first).to_be_enabled()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "home-phone-light.png", full_page=True)
    close(page)


def test_it_says_in_the_tab_when_it_is_your_turn_and_remembers_a_muted_sound(browser, live_server_url):
    ana, ben = seated(browser, live_server_url)
    mover, waiter = (ana, ben) if has_move(ana) else (ben, ana)
    expect(mover).to_have_title(re.compile(r"^● Your turn · "))
    assert not waiter.title().startswith("●")
    assert mover.locator("#favicon").get_attribute("href").endswith("favicon-turn.svg")
    mover.click("#sound-toggle")
    expect(mover.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    mover.reload()
    expect(mover.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    expect(mover.locator("#sound-toggle")).to_have_text("Sound off")
    close(ana, ben)


@UNTIL_A_KNOCK
def test_it_steps_through_an_archived_replay_in_place(browser, live_server_url):
    ana, ben = seated(browser, live_server_url, scoring="hand")
    knock_out(ana, ben)
    expect(ana.locator("#match-result")).to_be_visible(timeout=WAIT_MS)
    ana.goto(f"{live_server_url}/en/archive/")
    ana.locator("main a[href*='/matches/']").first.click()
    ana.goto(ana.url.split("#")[0].split("?")[0] + "?hand=1&step=1#replay")
    ana.evaluate("() => { window.stillThisPage = true; }")
    ana.locator("#replay-next").focus()
    ana.keyboard.press("Enter")
    expect(ana.locator("#replay .archive-meta")).to_contain_text("Move 2 of", timeout=WAIT_MS)
    assert ana.evaluate("() => window.stillThisPage === true"), "the page reloaded for one move"
    assert "step=2" in ana.url
    close(ana, ben)


def test_it_copies_the_share_link_and_says_it_did(browser, live_server_url):
    page = open_table(new_page(browser), live_server_url)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    button = page.locator(".share .copy")
    button.click()
    expect(button).to_have_text(button.get_attribute("data-text-copied"))
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#share-link").input_value()
    close(page)
