"""The settings' environment helpers: a number read from the environment, loud on a bad one."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from hollywood_site.settings import env_float


def test_it_reads_a_number_of_seconds_from_the_environment(monkeypatch):
    monkeypatch.setenv("GAMES_TEST_SECONDS", "0.02")
    assert env_float("GAMES_TEST_SECONDS", 0.4) == 0.02


def test_it_takes_the_default_when_the_variable_is_unset_or_empty(monkeypatch):
    monkeypatch.delenv("GAMES_TEST_SECONDS", raising=False)
    assert env_float("GAMES_TEST_SECONDS", 0.4) == 0.4
    monkeypatch.setenv("GAMES_TEST_SECONDS", "")
    assert env_float("GAMES_TEST_SECONDS", 0.4) == 0.4


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_it_refuses_a_value_that_is_not_a_number_of_seconds(monkeypatch, value):
    monkeypatch.setenv("GAMES_TEST_SECONDS", value)
    with pytest.raises(ImproperlyConfigured, match="GAMES_TEST_SECONDS"):
        env_float("GAMES_TEST_SECONDS", 0.4)
