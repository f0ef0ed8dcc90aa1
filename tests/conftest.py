import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english_unless_a_test_says_otherwise():
    # A request through LocaleMiddleware activates its page's language for the rest of
    # the thread: each test starts in English and leaves no language behind for the next.
    with translation.override("en"):
        yield
