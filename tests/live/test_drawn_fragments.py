"""The fragments drawn in Python (games.live.drawn) are what their templates render, byte for
byte, with the same escaping and the same words, in every language the site speaks."""

import pytest
from django.conf import settings
from django.template import Context
from django.utils import translation

from games.live import drawn, render
from games.live.batch import send_now
from games.live.commands import PressNextHand, Resign, Sit
from games.live.commands import Play
from games.live.opening import open_table
from games.live.tables import live_tables
from tests.live.helpers import choose_move

pytestmark = pytest.mark.django_db(transaction=True)

# Names a template would escape: a page must show them as typed, never as markup.
HOST, GUEST = "Ana <b>&amp;", "Ben \"O'Neil\""
TEMPLATED = sorted(set(drawn.DRAWN) - {"discard", "hand_cards", "hand_moves"})


def played_snapshots(seed, moves, **rules):
    """A table's snapshots from its deal on, through its showdowns and into the next hands,
    ended by a resignation."""
    code = open_table(HOST, deal_seed=seed, **rules).table.code
    send_now(code, Sit(GUEST))
    snapshots = []
    for _ in range(moves):
        snapshot = live_tables.get(code).snapshot
        snapshots.append(snapshot)
        state = snapshot.state_for(0)
        if state["hand_result"] is not None:
            for seat in (0, 1):
                send_now(code, PressNextHand(seat))
        else:
            send_now(code, Play(state["to_move"], choose_move(snapshot.state_for(state["to_move"]))))
    send_now(code, Resign(1))
    return snapshots + [live_tables.get(code).snapshot]


def differences(snapshots, language):
    """Each fragment drawn in Python whose drawing differs from its template's rendering."""
    found, drawings = [], 0
    with translation.override(language):
        for snapshot in snapshots:
            for seat in (0, 1, None):
                view = render.LiveView(snapshot.state_for(seat))
                for template, live in view.contexts.values():
                    if template in TEMPLATED:
                        drawings += 1
                        expected = render.fragment_template(template).render(Context({"live": live}))
                        if drawn.DRAWN[template](live, language) != expected:
                            found.append((template, live))
    assert drawings > 100
    return found


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_it_draws_each_fragment_exactly_as_its_template_renders_it(language):
    snapshots = played_snapshots("drawn", 90)
    assert differences(snapshots, language) == []


def test_it_draws_the_turn_clock_and_its_bank_exactly_as_the_template_does(settings):
    settings.GAMES_CLOCK_BANK_SECONDS = 30
    snapshots = played_snapshots("drawn-clock", 40, clock=30)
    assert any(snapshot.state_for(0)["clock"]["deadline"] for snapshot in snapshots)
    for language in ("en", "cs"):
        assert differences(snapshots, language) == []


def test_it_draws_a_turn_clock_without_a_bank_exactly_as_the_template_does(settings):
    settings.GAMES_CLOCK_BANK_SECONDS = 0
    snapshots = played_snapshots("drawn-no-bank", 40, clock=30)
    assert differences(snapshots, "de") == []
