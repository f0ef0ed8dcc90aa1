"""Issue 42: what a turn needs, in sight without scrolling: on a phone upright (390×844) and
sideways (844×390) the piles, the whole hand and the turn's buttons, in every language with a
clock and Oklahoma (a bar at the screen's foot holds the buttons, and the page opens at the
felt); the guided hand's hint at every step, on a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    ALL_SIZES, DISCARDS, LANGUAGES, PHONES, WAIT_MS, armed, close, computer_table, covered, device, off_screen,
    shoot, to_my_discard, version, wait_for_version,
)

pytestmark = pytest.mark.browser

# What a turn is played with: the piles, every card of the hand, every button of the move.
TURN = "#stock-pile .card, #discard-pile .pile-fan, #hand-cards [data-card], #actions button"


def out_of_reach(page):
    """The controls of the turn that are off the screen or under something else, as the page
    stands: the test never scrolls."""
    controls = page.locator(TURN)
    return off_screen(controls) + covered(controls)


@PHONES
@pytest.mark.parametrize("language", LANGUAGES)
def test_it_shows_every_control_of_a_turn_without_scrolling_with_a_clock_and_oklahoma(browser, live_server_url, size, language):
    page = computer_table(device(browser, size), live_server_url, language=language, clock=30, options=["oklahoma"], guide=False)
    page.wait_for_selector("#move-pass, #move-stock", timeout=WAIT_MS)
    armed(page)
    assert out_of_reach(page) == [], f"{size} {language}: to draw, out of reach: {out_of_reach(page)}"
    shoot(page, f"turn-draw-{language}")
    to_my_discard(page)
    assert out_of_reach(page) == [], f"{size} {language}: to discard, out of reach: {out_of_reach(page)}"
    shoot(page, f"turn-discard-{language}")
    close(page)


@ALL_SIZES
def test_it_shows_the_guided_hands_hint_beside_the_turns_controls_at_every_step(browser, live_server_url, size):
    page = computer_table(device(browser, size), live_server_url, level="beginner")
    guide = page.locator("#guide .guide-text, #guide-skip")
    steps = []
    for _ in range(6):
        page.wait_for_selector(f"{DISCARDS}, #move-stock, #move-pass", timeout=WAIT_MS)
        armed(page)
        step = page.locator("#guide").get_attribute("data-step")
        steps.append(step)
        assert off_screen(guide) + covered(guide) == [], f"{size}: the hint of the {step} step is out of sight"
        assert out_of_reach(page) == [], f"{size}: the hint of the {step} step hides {out_of_reach(page)}"
        shoot(page, f"guide-{step}")
        if step == "discard":
            break
        before = version(page)
        page.locator("#move-stock, #move-pass").first.click()
        wait_for_version(page, before + 1)
    assert "discard" in steps, steps
    close(page)


# How the guided hand's hints begin in English: a page in another language shows none of them.
ENGLISH_HINTS = ("Draw:", "Discard:", "The first upcard", "The hand", "While ", "Gin:", "You may knock")


@PHONES
@pytest.mark.parametrize("language", LANGUAGES)
def test_it_leaves_the_whole_turn_in_sight_beside_the_guides_hint_in_every_language_and_in_its_words(browser, live_server_url, size, language):
    page = computer_table(device(browser, size), live_server_url, language=language, level="beginner", clock=30,
                          options=["oklahoma"])
    page.wait_for_selector("#move-pass, #move-stock", timeout=WAIT_MS)
    armed(page)
    guide = page.locator("#guide .guide-text, #guide-skip")
    assert off_screen(guide) + covered(guide) + out_of_reach(page) == [], (
        f"{size} {language}: out of reach beside the hint: {off_screen(guide) + covered(guide) + out_of_reach(page)}")
    hint = page.locator("#guide .guide-text").inner_text()
    assert hint and (language == "en" or not hint.startswith(ENGLISH_HINTS)), f"{language}: {hint}"
    shoot(page, f"guide-turn-{language}")
    close(page)

# Pressed the moment a new state shows: `resign` pressed in the same task as the state's arrival.
PRESS_AS_THE_TABLE_CHANGES = """selector => {
    const live = document.getElementById('table-live'), shown = live.dataset.version;
    new MutationObserver((_, observer) => {
        if (live.dataset.version === shown) return;
        observer.disconnect();
        document.querySelector(selector).click();
    }).observe(live, {attributes: true, attributeFilter: ['data-version']});
}"""


def test_it_says_so_when_a_press_comes_too_soon_after_the_table_changed(browser, guarded_server_url):
    page = computer_table(device(browser, "phone"), guarded_server_url, guide=False)
    page.wait_for_selector("#move-pass, #move-stock", timeout=WAIT_MS)
    armed(page)
    page.evaluate(PRESS_AS_THE_TABLE_CHANGES, "#resign")
    before = version(page)
    page.locator("#move-pass, #move-stock").first.click()
    wait_for_version(page, before + 1)
    error = page.locator("#table-error")
    expect(error).to_have_text("Too quick: look at what changed, then press again.")
    assert page.locator("#resign").get_attribute("data-confirming") != "true", "the early press was played"
    assert off_screen(error) + covered(error) == []
    shoot(page, "too-soon")
    expect(error).to_be_hidden(timeout=WAIT_MS)  # said for a moment, then gone
    close(page)
