"""Random, malformed, oversized, deeply nested and wrong-typed frames at both sockets: the
server answers each with an error (or a state), logs no traceback, and changes nothing.

The table has only its first seat taken, so no frame whatever may change its game: every move,
"next hand" or "rematch" is refused, as every frame of a spectator is.
"""

import json
import logging

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Move, Table
from games.live.opening import open_table
from hollywood_site.asgi import application
from tests.live.helpers import HOST, ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                      max_leaves=20)
types = st.one_of(st.sampled_from(["move", "next_hand", "rematch", "sort", "chat", "", "MOVE"]), values)
moves = st.one_of(st.sampled_from(["pass", "pile", "stock", "discard 7H", "knock AS", "discard ZZ"]), values)
frames = st.one_of(
    st.builds(lambda kind, move, version: json.dumps({"type": kind, "move": move, "version": version}),
              types, moves, values),
    values.map(json.dumps),
    st.text(min_size=1, max_size=300),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(1, 3000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.just("x" * 5000),  # over the frame limit
    st.binary(min_size=1, max_size=300),
)


async def throw(path, headers, sent):
    from channels.testing import WebsocketCommunicator

    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.receive_json_from(timeout=5)  # the state on connect
    answers = []
    for frame in sent:
        if isinstance(frame, bytes):
            await socket.send_to(bytes_data=frame)
        else:
            await socket.send_to(text_data=frame)
        answers.append(await socket.receive_json_from(timeout=5))
    await socket.disconnect()
    return answers


@pytest.fixture
def lone_table(db, settings):
    # Each example connects anew, far more often than a person: the per-address limit on new
    # sockets is not what this test is about.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "connect": "100000/m"}
    seated = open_table("Ana")
    return seated.table.code, seated.token


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=st.lists(frames, min_size=1, max_size=8), as_spectator=st.booleans(), browser=st.booleans())
def test_it_answers_any_frame_with_an_error_or_a_state_and_changes_nothing(lone_table, caplog, sent, as_spectator, browser):
    code, token = lone_table
    before = (Table.objects.get(code=code).version, Move.objects.count())
    if browser:
        path = f"/ws/tables/{code}/"
        headers = [ORIGIN, HOST] + ([] if as_spectator else [(b"cookie", f"seat_{code}={token}".encode())])
    else:
        path = f"/ws/api/tables/{code}/"
        headers = [ORIGIN, HOST] + ([] if as_spectator else [(b"authorization", f"Bearer {token}".encode())])
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        answers = async_to_sync(throw)(path, headers, sent)
    assert all(answer["type"] in ("error", "state") for answer in answers)
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    assert (Table.objects.get(code=code).version, Move.objects.count()) == before
