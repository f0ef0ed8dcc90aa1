"""Random bodies and parameters at every HTTP endpoint: the server answers each with a
refusal (never a server error), logs no traceback, and changes nothing.

The WebSocket half of the fuzz belongs with the consumers' rewrite. Rate limits are off
here, or the fuzz would soon see nothing but 429s.
"""

import json
import logging
from collections import Counter
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from games.archive.models import ArchivedMatch, Player, PlayerResult

from games.live.batch import send_now
from games.live.commands import Sit
from games.live.opening import open_table
from games.models import Move, Seat, Table

pytestmark = pytest.mark.django_db

EXAMPLES = 1000
FUZZ = hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None,
                           suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# What an address part or a parameter may be: anything, a near miss of a real id, or a real one.
text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=12, max_size=12),
    st.sampled_from(["\x00", "%00", "../", "'; drop table games_table; --", "9" * 40, "-1", "1e999", "Ana"]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
# Every body but a valid one: no "name" (every mutation needs one), wrong types, not JSON at all.
bodies = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    json_values.filter(lambda value: not isinstance(value, dict) or "name" not in value).map(lambda v: json.dumps(v).encode()),
    st.integers(1, 3000).map(lambda depth: ("[" * depth + "]" * depth).encode()),
    st.builds(lambda name: json.dumps({"name": name}).encode(), st.one_of(st.integers(), st.lists(st.text()), st.just(""), st.text(min_size=25, max_size=40))),
)
forms = st.dictionaries(st.sampled_from(["scoring", "target", "straight", "oklahoma", "token", "nam"]), text, max_size=5)
queries = st.dictionaries(st.sampled_from(["player", "player_id", "scoring", "page", "hand", "step", "seat", "more", "next",
                                           "lang", "sort"]), text, max_size=4)


@pytest.fixture
def world(db):
    """A table in play (both seats), a finished match in the archive and its players."""
    code = open_table("Ana").table.code
    send_now(code, Sit("Ben")).answer
    archived = ArchivedMatch.objects.get()
    player = Player.objects.first()
    return {"code": code, "match": archived.public_id, "player": player.public_id}


def snapshot():
    return (
        list(Table.objects.order_by("pk").values_list("code", "version", "state", "match_number")),
        list(Seat.objects.order_by("pk").values_list("token_hash", "name", "ready", "player_id")),
        list(Player.objects.order_by("pk").values_list("public_id", "name", "token_hash")),
        list(ArchivedMatch.objects.order_by("pk").values_list("public_id", "status")),
        Move.objects.count(), PlayerResult.objects.count(),
    )


def ids(world, key):
    return st.one_of(text, st.just(world[key]))


def get_paths(world):
    part = lambda key: ids(world, key).map(lambda value: quote(value, safe=""))  # noqa: E731
    return st.one_of(
        st.sampled_from(["/en/", "/de/how-to-play/", "/en/archive/", "/en/players/claim/", "/tr/history/"]),
        part("code").map(lambda code: f"/en/t/{code}/"),
        part("match").map(lambda match: f"/en/archive/matches/{match}/"),
        part("match").map(lambda match: f"/api/matches/{match}"),
        part("match").map(lambda match: f"/api/matches/{match}/sheet.csv"),
        part("player").map(lambda player: f"/en/players/{player}/"),
        part("player").map(lambda player: f"/api/players/{player}"),
        text.map(lambda code: f"/language/{quote(code, safe='')}/"),
        text.map(lambda anything: "/" + quote(anything, safe="/")),
    )


def post_paths(world):
    part = ids(world, "code").map(lambda value: quote(value, safe=""))
    return st.one_of(
        st.sampled_from(["/api/tables", "/en/tables/open/", "/en/players/claim/"]),
        part.map(lambda code: f"/api/tables/{code}/join"),
        part.map(lambda code: f"/en/t/{code}/join/"),
        part.map(lambda code: f"/en/t/{code}/claim/"),
        part.map(lambda code: f"/en/t/{code}/revoke/"),
    )


def no_traceback(caplog):
    return [record.getMessage() for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]


def test_it_refuses_random_requests_to_every_endpoint_and_changes_nothing(world, settings, caplog):
    settings.RATELIMIT_ENABLE = False
    client = Client()
    before = snapshot()
    statuses = Counter()

    @FUZZ
    @given(st.data())
    def one_request(data):
        method = data.draw(st.sampled_from(["get", "post_json", "post_form"]))
        if method == "get":
            response = client.get(data.draw(get_paths(world)), data.draw(queries))
            assert response.status_code < 500
        elif method == "post_json":
            response = client.post(data.draw(post_paths(world)), data.draw(bodies), content_type="application/json")
            assert 300 <= response.status_code < 500
        else:
            response = client.post(data.draw(post_paths(world)), data.draw(forms))
            assert 300 <= response.status_code < 500
        statuses[(method, response.status_code)] += 1

    one_request()
    print("fuzz answers:", dict(sorted(statuses.items())))
    assert sum(statuses.values()) >= EXAMPLES
    assert snapshot() == before
    assert no_traceback(caplog) == []
