"""Issue 42: the cards of the player's hand, as a mouse and a finger meet them at every size:
a picked card never takes a press aimed at its neighbour, a tap beside the cards lets go of
it with nothing played (issue 21's mis-tap), and a desktop with room to spare
shows every card of the hand whole."""

import pytest

from tests.browser.helpers import (
    ALL_SIZES, DISCARDS, close, computer_table, device, picked, press, shoot, to_my_discard, version, visible_middle,
)

pytestmark = pytest.mark.browser

RANK_CORNER = {"x": 8, "y": 14}  # where a card's rank sits, from its top left corner (the review's aim)


def aim_at_rank(page, card):
    """A tap or a click where `card`'s rank is printed."""
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    x, y = box["x"] + RANK_CORNER["x"], box["y"] + RANK_CORNER["y"]
    if page.touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


@ALL_SIZES
def test_it_picks_the_neighbour_whose_rank_a_press_aims_at_while_a_card_is_picked_and_a_mis_tap_costs_nothing(
        browser, live_server_url, size):
    page = computer_table(device(browser, size), live_server_url)
    cards = to_my_discard(page)
    codes = cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
    before = version(page)
    press(page, cards.nth(0))
    for neighbour in codes[1:]:
        aim_at_rank(page, page.locator(f"#card-{neighbour}"))
        assert picked(page) == [neighbour], f"{size}: aimed at {neighbour}'s rank, {picked(page)} is picked"
        assert version(page) == before, f"{size}: a press aimed at {neighbour} played a move"
    shoot(page, "picked-neighbour")
    press(page, page.locator("#status-line"))  # a tap beside the cards lets go of the card
    assert picked(page) == [] and version(page) == before
    close(page)


@pytest.mark.parametrize("width, whole", [(1280, 0.88), (1600, 1.0)])
def test_it_shows_every_card_of_a_desktop_hand_whole_when_the_felt_has_room(browser, live_server_url, width, whole):
    page = device(browser, "desktop")
    page.set_viewport_size({"width": width, "height": 800})
    computer_table(page, live_server_url)
    cards = to_my_discard(page)
    for index in range(cards.count()):
        card = cards.nth(index)
        shown = visible_middle(card, scroll=index == 0)["width"]
        assert shown >= whole * card.bounding_box()["width"] - 1, (
            f"{width} px: {shown} px of {card.get_attribute('data-card')}'s {card.bounding_box()['width']} in sight")
    rows = page.locator(DISCARDS).evaluate_all("cards => new Set(cards.map(c => Math.round(c.getBoundingClientRect().top))).size")
    assert rows == 1, f"{width} px: the hand takes {rows} rows"
    page.size = f"desktop{width}"
    shoot(page, "hand")
    close(page)
