"""Under the site's strict Content-Security-Policy (no inline script or style) a table still
plays in a real browser, and the browser reports no violation on any page it visits."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, play_and_wait, sit_down

pytestmark = pytest.mark.browser

# Collected in each page before its own scripts run: every CSP violation the browser sees.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def violations(page):
    return page.evaluate("window.cspViolations")


def test_it_plays_a_table_under_the_strict_content_security_policy(browser, live_server_url):
    ana, ben = sit_down_recording(browser, live_server_url)
    policy = ana.evaluate("fetch(location.href).then(r => r.headers.get('content-security-policy'))")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    for _ in range(4):
        play_and_wait(ana, ben)
    ana.click("#table-live [data-sort='rank']")  # a frame the page script sends
    for page in (ana, ben):
        expect(page.locator("#connection-status")).to_have_attribute("data-state", "connected", timeout=WAIT_MS)
        assert violations(page) == []
    ben.context.close()
    ana.context.close()


def sit_down_recording(browser, base_url):
    """sit_down, with every new context recording violations from its first script on."""
    original = browser.new_context

    def recording_context(**options):
        context = original(**options)
        context.add_init_script(RECORD_VIOLATIONS)
        return context

    browser.new_context = recording_context
    try:
        return sit_down(browser, base_url)
    finally:
        browser.new_context = original


@pytest.mark.parametrize("path", ["/en/", "/en/how-to-play/", "/en/archive/", "/de/hollywood-scoring/"])
def test_it_shows_the_sites_pages_without_a_policy_violation(page, live_server_url, path):
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(live_server_url + path)
    page.wait_for_load_state("load")
    assert violations(page) == []
