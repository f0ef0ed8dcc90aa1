"""Issue 42: the table's chat as a player meets it: a keyboard scrolls back through a long chat
(axe's scrollable-region-focusable), and a line the flood limit refuses stays in the field to
be sent again."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WAIT_MS, axe_violations, close, two_players

pytestmark = pytest.mark.browser

BURST = 5  # GAMES_CHAT_BURST: the lines a seat may say in GAMES_CHAT_WINDOW_SECONDS


def say(page, text):
    """A line typed and sent with Enter, then seen back in the chat."""
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-lines li").last).to_contain_text(text, timeout=WAIT_MS)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_it_lets_a_keyboard_scroll_back_through_a_long_chat(browser, live_server_url, size):
    ana, ben = two_players(browser, live_server_url, size, audited=True)
    for line in range(BURST - 1):
        say(ana, f"Line {line} from Ana, long enough to take a line of its own")
        say(ben, f"Line {line} from Ben, long enough to take a line of its own")
    lines = ana.locator("#chat-lines")
    assert lines.evaluate("e => e.scrollHeight > e.clientHeight"), "the chat does not scroll yet: too few lines"
    violations = [found for found in axe_violations(ana) if "chat-lines" in found or found.startswith("scrollable-region")]
    assert violations == [], violations
    lines.focus()
    ana.keyboard.press("Home")
    expect(lines).to_have_js_property("scrollTop", 0)
    expect(lines).to_have_accessible_name("Chat")
    close(ana, ben)


def test_it_keeps_a_line_the_flood_limit_refuses_in_the_field(browser, live_server_url):
    ana, ben = two_players(browser, live_server_url)
    for line in range(BURST):
        say(ana, f"Line {line}")
        expect(ana.locator("#chat-text")).to_have_value("")
    ana.fill("#chat-text", "One line too many, typed with care")
    ana.press("#chat-text", "Enter")
    expect(ana.locator("#table-error")).to_contain_text("slow down", timeout=WAIT_MS)
    expect(ana.locator("#chat-text")).to_have_value("One line too many, typed with care")
    close(ana, ben)
