"""How a table page comes back after its socket closes, on the page's own clock (Playwright's
fake timers): it backs off with jitter, keeps backing off from a server that accepts and
closes until a state arrives, waits steadily while the database is away (4503) and long when
refused for opening too many sockets (4429)."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_play import WAIT_MS
from tests.browser.test_table import new_page, open_table

pytestmark = pytest.mark.browser

# The page's sockets, answered as the test says (window.answers, one a socket): a number is a
# server that accepts the socket and closes it with that code; null is the real server, until
# its first state has been shown (then the socket is closed). Each socket opened and closed is
# recorded at the page's (fake) time.
SERVER_SAYS = """
(() => {
  const Real = window.WebSocket;
  window.answers = [];
  window.socketsOpened = [];
  window.socketsClosed = 0;
  window.closedAt = [];
  class Answered extends EventTarget {
    constructor(code) {
      super();
      this.readyState = Real.CONNECTING;
      Promise.resolve().then(() => {
        this.readyState = Real.OPEN;
        this.dispatchEvent(new Event("open"));
        this.readyState = Real.CLOSED;
        this.dispatchEvent(new CloseEvent("close", {code: code}));
      });
    }
    send() {}
    close() {}
  }
  function Recorded(url) {
    window.socketsOpened.push(Date.now());
    const answer = window.answers.length ? window.answers.shift() : 1011;
    const socket = answer === null ? new Real(url) : new Answered(answer);
    socket.addEventListener("close", () => { window.socketsClosed += 1; window.closedAt.push(Date.now()); });
    if (answer === null) {
      socket.addEventListener("message", (event) => {
        if (JSON.parse(event.data).type === "state") setTimeout(() => socket.close(4000), 0);
      });
    }
    return socket;
  }
  Object.assign(Recorded, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Recorded;
})();
"""


def reconnected_after(page, least_waits):
    """The milliseconds, on the page's clock, from the close of each of its first sockets (one
    for each of `least_waits`) to the opening of the next. After each close the clock runs on
    at once by the least wait the test allows (a socket opened sooner is stamped at its own
    time all the same), then 100 ms at a time until the page opens the next."""
    gaps = []
    for count, least in enumerate(least_waits, start=1):
        page.wait_for_function(f"() => window.socketsClosed >= {count}", polling=50, timeout=WAIT_MS)
        page.clock.run_for(least)
        while page.evaluate("() => window.socketsOpened.length") <= count:
            page.clock.run_for(100)
        opened, closed = page.evaluate("() => [window.socketsOpened, window.closedAt]")
        gaps.append(opened[count] - closed[count - 1])
    return gaps


def answered(page, answers):
    page.evaluate(f"() => {{ window.answers = {answers}; }}")


@pytest.fixture
def table(browser, live_server_url):
    page = open_table(new_page(browser), live_server_url)
    page.add_init_script(SERVER_SAYS)
    page.clock.install()
    page.reload()  # with SERVER_SAYS; its answers list is empty: the first socket is closed 1011
    yield page
    page.context.close()


def test_it_backs_off_with_jitter_from_a_server_that_accepts_and_closes_until_a_state_arrives(table):
    answered(table, "[1011, 1011, 1011, null, 1011]")
    doubling = [500, 1000, 2000, 4000]  # sockets 0-3: closed at once, though each had opened
    gaps = reconnected_after(table, [most // 2 for most in doubling] + [250, 500])
    for gap, most in zip(gaps, doubling):
        assert most / 2 <= gap <= most + 100, gaps  # +100: the clock runs on in steps of 100 ms
    assert 250 <= gaps[4] <= 600, gaps  # socket 4 was the real server's and showed a state
    assert 500 <= gaps[5] <= 1100, gaps  # and socket 5 doubles from there
    assert len({round(gap / most, 1) for gap, most in zip(gaps, doubling)}) > 1, gaps  # drawn, not fixed


def test_it_waits_two_to_four_seconds_each_time_while_the_database_is_away(table):
    answered(table, "[4503, 4503, 4503, 4503, 4503, 4503]")
    gaps = reconnected_after(table, [0] + [2000] * 5)[1:]  # after the first socket, closed 1011
    assert all(2000 <= gap <= 4100 for gap in gaps), gaps
    expect(table.locator("#connection-status")).to_have_attribute("data-state", "database")


def test_it_waits_at_least_twenty_seconds_after_too_many_sockets(table):
    answered(table, "[4429, 4429]")
    gaps = reconnected_after(table, [0, 20000, 20000])[1:]
    assert all(20000 <= gap <= 40100 for gap in gaps), gaps
    table.evaluate("() => { window.answers = [4429]; }")
    table.wait_for_function("() => window.socketsClosed >= 4", polling=50, timeout=WAIT_MS)
    expect(table.locator("#connection-status")).to_have_text("Too many connections. Trying again shortly…")
