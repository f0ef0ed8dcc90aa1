import pytest
from tests.browser.test_table import seated, PHONE, mover_of, version, armed, simple_move
pytestmark = pytest.mark.browser

def test_debug(browser, live_server_url):
    ana, ben = seated(browser, live_server_url, "Ana", "Ben", PHONE, "dark")
    for page in (ana, ben):
        page.on("console", lambda m: print("CONSOLE", m.text))
        page.on("pageerror", lambda e: print("PAGEERROR", e))
    for i in range(14):
        mover = mover_of(ana, ben)
        before = version(mover)
        armed(mover)
        target = simple_move(mover)
        print("MOVE", i, target.evaluate("e => e.outerHTML.slice(0,150)"))
        box = target.bounding_box()
        print("AT", mover.evaluate("([x,y]) => document.elementFromPoint(x,y).outerHTML.slice(0,120)", [box["x"]+box["width"]/2, box["y"]+box["height"]/2]))
        target.click()
        mover.wait_for_timeout(1500)
        print("VERSION", before, version(mover), mover.locator("#table-error").inner_text())
