"""A socket's frame limit: refused frames count, and a client that keeps flooding is closed."""

import pytest
from tests.live.helpers import close, error_frame, receive, seated_sockets

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_limits_how_many_frames_a_connection_may_send(settings):
    settings.GAMES_WS_RATE_PER_SECOND = 1  # however slowly this machine answers, the bucket stays empty
    _, _, sockets, _ = await seated_sockets()
    for _ in range(100):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    codes = [(await error_frame(sockets[0]))["code"] for _ in range(100)]
    assert "rate_limited" in codes
    await close(*sockets)


async def test_it_counts_binary_and_oversized_frames_against_the_limit_too(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(5):
        await sockets[0].send_to(bytes_data=b"\x00" * 10_000)
    await sockets[0].send_to(text_data="x" * 10_000)
    codes = [(await error_frame(sockets[0]))["code"] for _ in range(6)]
    assert codes == ["malformed"] * 5 + ["rate_limited"]
    await close(*sockets)


async def test_it_closes_a_client_that_keeps_sending_past_its_limit(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    code, tokens, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    # A burst's worth of refusals in a row, then the socket is closed as a policy violation,
    # with a code from the application's range that every server sends (daphne refuses 1008):
    # no answer is queued for a client that may never read them.
    while (output := await sockets[0].receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert output["code"] == 4008
    await sockets[1].disconnect()


async def test_it_sends_nothing_on_a_socket_after_closing_it(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    while (await sockets[0].receive_output(timeout=5))["type"] != "websocket.close":
        pass
    # Its client has not gone yet: its frames still arrive, and the table still changes.
    await sockets[0].send_to(text_data='{"type": "next_hand"}')
    await sockets[1].send_json_to({"type": "chat", "text": "Still there?"})
    while (await receive(sockets[1]))["type"] != "chat":
        pass
    assert await sockets[0].receive_nothing(timeout=0.5)  # uvicorn logs each send after a close
    await sockets[1].disconnect()
