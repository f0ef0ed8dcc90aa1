import re
import subprocess
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT

pytestmark = pytest.mark.browser


def test_it_moves_focus_to_the_main_content_with_the_skip_link(page, live_server_url):
    page.goto(f"{live_server_url}/en/")
    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to main content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()


def test_it_switches_to_the_same_page_in_german(page, live_server_url):
    page.goto(f"{live_server_url}/en/")
    page.get_by_role("link", name="Deutsch").click()
    expect(page).to_have_url(f"{live_server_url}/de/")
    expect(page.locator("html")).to_have_attribute("lang", "de")


def test_it_shows_archive_times_in_the_visitor_s_time_zone(browser, live_server_url, live_server_env):
    subprocess.run([sys.executable, "manage.py", "simulate_matches", "--matches", "1", "--players", "2", "--seed", "3"],
                   cwd=ROOT, env=live_server_env, check=True, capture_output=True)
    context = browser.new_context(timezone_id="America/New_York")
    page = context.new_page()
    page.goto(f"{live_server_url}/cs/archive/")
    time = page.locator("time").first
    utc = datetime.fromisoformat(time.get_attribute("datetime")).astimezone(timezone.utc)
    new_york = utc.astimezone(ZoneInfo("America/New_York"))
    # The server's text, in UTC, stays in the title; the text is New York's time, zone named.
    expect(time).to_have_attribute("title", re.compile(r" UTC$"))
    expect(time).to_have_text(re.compile(rf"^{new_york.day}\. {new_york.month}\. {new_york.year} {new_york.hour}:{new_york.minute:02d} \S+"))
    context.close()
