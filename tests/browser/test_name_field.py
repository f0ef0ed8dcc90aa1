"""Issue 42: a name field says a name is too long as it is typed, before the form is sent,
counting what a reader sees as the server does, and never cuts a pasted name."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import close, device

pytestmark = pytest.mark.browser

TOO_LONG = "A name may have at most 24 characters."
CODER = "\U0001F469\u200D\U0001F4BB"  # one character a reader sees, five UTF-16 units


def validity(field):
    return field.evaluate("e => [e.validity.valid, e.validationMessage]")


def test_it_says_a_name_is_too_long_before_the_form_is_sent(browser, live_server_url):
    page = device(browser, "phone")
    page.goto(f"{live_server_url}/en/")
    field = page.locator("#open-name")
    field.fill("x" * 30)
    assert validity(field) == [False, TOO_LONG]
    page.click("form.open-table button[name=open_table]")
    expect(page).to_have_url(f"{live_server_url}/en/")  # the browser kept the form: nothing sent
    assert field.input_value() == "x" * 30, "the name typed was cut"
    close(page)


def test_it_takes_a_name_of_24_characters_that_are_many_units_whole(browser, live_server_url):
    page = device(browser, "desktop")
    page.goto(f"{live_server_url}/en/")
    field = page.locator("#open-name")
    field.fill(CODER * 24)
    assert field.input_value() == CODER * 24 and validity(field) == [True, ""]
    field.fill(CODER * 25)
    assert validity(field) == [False, TOO_LONG]
    close(page)
