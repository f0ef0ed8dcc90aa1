"""The computer's review in a real Chromium: asked for on a match's page, its progress polled by
htmx until a real worker is done, the graph and its text, the replay stepped with the arrow keys;
on a desktop and a phone, with no accessibility violation. Screenshots in test-results/screenshots/."""

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT
from tests.browser.test_table import DESKTOP, PHONE, SCREENSHOTS, assert_no_violations, axe_violations, new_page

pytestmark = pytest.mark.browser

# A single hand of the engine's simple policy, but for one planted blunder: the first time a
# player holding a meld of three and a loose card discards, it breaks the meld instead.
SETUP = """
import random
from games.archive.simulate import choose_move
from games.engine import Match, Options
from tests.archive.helpers import make_player, record_engine_match
match = Match(Options(), scoring="hand", first_dealer=0, rng=random.Random(4))
rng, planted = random.Random(4), False
while match.hand.result is None:
    hand = match.hand
    view, move = hand.view(hand.to_move), choose_move(hand, rng)
    melds = [meld for meld in view["melds"] if len(meld) == 3]
    breaking = "discard " + melds[0][1] if melds and view["deadwood"] else None
    if not planted and move.startswith("discard") and breaking in view["legal_moves"]:
        move, planted = breaking, True
    match.play(move)
archived = record_engine_match((make_player("Ana"), make_player("Ben")), match, code="review-{size}")
# A fixed id: the review's worlds are seeded by it, so every run meets the same review.
archived.public_id = "review{size}"[:12].ljust(12, "x")
archived.save(update_fields=["public_id"])
print(archived.public_id)
"""
# Reviewing a single hand takes a few seconds of CPU: far less on a quiet machine.
WAIT_MS = 90_000


def recorded_match(env, size):
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(size=size)], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    return done.stdout.split()[-1]


def run_worker(env):
    subprocess.run([sys.executable, "manage.py", "db_worker", "--batch", "--no-reload", "--no-startup-delay"], cwd=ROOT,
                   env=env, check=True, capture_output=True, timeout=WAIT_MS / 1000)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_it_reviews_a_match_from_its_page_and_steps_through_the_replay_with_the_arrow_keys(browser, live_server_url, live_server_env, size):
    name = "desktop" if size is DESKTOP else "phone"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    match_id = recorded_match(live_server_env, name)
    page = new_page(browser, size, audited=True)
    page.goto(f"{live_server_url}/en/archive/matches/{match_id}/")
    page.get_by_role("button", name="Review with the computer").click()
    expect(page).to_have_url(re.compile(r"/review/$"))
    expect(page.get_by_role("status")).to_contain_text("The computer is reviewing this match")
    page.screenshot(path=SCREENSHOTS / f"issue44-pending-{name}.png")
    run_worker(live_server_env)
    # htmx's next poll finds it ready and reloads the page.
    expect(page.get_by_role("table", name="Each player's play, judged by the computer")).to_be_visible(timeout=WAIT_MS)
    graph = page.get_by_role("img", name=re.compile("Ana's chance of winning the hand"))
    expect(graph).to_be_visible()
    page.get_by_text("The chances as a table").click()
    expect(page.locator(".review-text-graph table")).to_be_visible()
    page.get_by_text("Every decision").click()
    mistake = page.locator(".review-mistakes li").filter(has_text=re.compile("Blunder|Mistake")).first
    expect(mistake).to_contain_text(re.compile("Blunder|Mistake"))
    mistake.get_by_text("Find a better move").click()
    expect(mistake).to_contain_text("The computer would have played:")
    # Nothing wider than the screen but the tables, each of which scrolls in its own box.
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.review-scroll table'))
        .map(e => e.tagName + '.' + e.className)""")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], wide
    page.screenshot(path=SCREENSHOTS / f"issue44-review-{name}.png", full_page=True)
    assert_no_violations({"the review": axe_violations(page)})
    mistake_url = mistake.get_by_role("link", name="See the position").get_attribute("href")
    page.locator(".review-decisions a").first.click()
    page.wait_for_load_state("load")  # replay-keys.js is deferred: it listens once the page has loaded
    expect(page.locator("#replay")).to_contain_text(re.compile(r"Move \d+ of \d+"))
    before = page.locator("#replay .archive-meta").inner_text()
    step = int(re.search(r"Move (\d+) of", before).group(1))
    expect(page.locator("#replay-other-hand")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay .archive-meta")).to_contain_text(f"Move {step + 1} of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay .archive-meta")).to_contain_text(f"Move {step} of")
    page.goto(live_server_url + mistake_url)
    expect(page.locator("#replay-mistake")).to_contain_text(re.compile("Blunder|Mistake"))
    expect(page.locator("#replay-previous-mistake, #replay-next-mistake").first).to_be_visible()
    page.screenshot(path=SCREENSHOTS / f"issue44-replay-{name}.png", full_page=True)
    assert page.script_errors == []
    page.context.close()
