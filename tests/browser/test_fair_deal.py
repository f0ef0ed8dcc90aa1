"""The deal's fingerprints at the table, and each browser's own randomness for the next deal
(docs/fairness.md), on a site that deals from committed seeds."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS, play_to_the_showdown, press_next_hand_together, sit_down

pytestmark = pytest.mark.browser


def shown_commitment(page, label):
    """The whole commitment the table shows after `label` ("Deal", "Next deal"), from its tooltip."""
    return page.locator("#table-deal span", has_text=label).first.get_attribute("title")


def test_each_browser_adds_its_randomness_to_the_next_deal_and_the_deal_keeps_its_commitment(browser, committed_server_url):
    ana, ben = sit_down(browser, committed_server_url)
    first = shown_commitment(ana, "Deal")
    assert len(first) == 64 and ana.locator("#table-deal code").first.inner_text() == first[:10]
    expect(ana.locator("#table-deal a")).to_have_attribute("href", "/en/fairness/")
    play_to_the_showdown(ana, ben)
    # Both pages send their contribution on seeing the commitment; the server's state then says
    # both are in, and the pages stop asking.
    for page in (ana, ben):
        expect(page.locator("#table-deal[data-contribute]")).to_have_count(0, timeout=WAIT_MS)
        expect(page.locator("#table-error")).to_be_hidden()
    waiting = shown_commitment(ben, "Next deal")
    assert waiting and waiting != first and shown_commitment(ana, "Next deal") == waiting
    assert len(ben.locator("#table-deal span", has_text="its seed").first.get_attribute("title")) == 64
    press_next_hand_together(ana, ben)
    for page in (ana, ben):
        assert shown_commitment(page, "Deal") == waiting
    ben.context.close()
    ana.context.close()
