"""A socket's frames and sockets: past its budget, or its address's, a socket is closed at once
(4429) and its refused frames are not answered; sockets are capped per address and per table;
a socket that does not read is sent only the newest state, and ended when it takes nothing."""

import asyncio

import pytest
from games.live import hub
from tests.live.helpers import TIMEOUT, api_socket, close, error_frame, play, receive, seated_sockets

pytestmark = pytest.mark.django_db(transaction=True)


async def closed(socket):
    """The close the server sent, after whatever came before it."""
    while (output := await socket.receive_output(timeout=TIMEOUT))["type"] != "websocket.close":
        pass
    return output["code"], output.get("reason", "")


async def test_it_closes_a_socket_at_once_with_4429_past_its_frame_budget_and_answers_no_refused_frame(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    outputs = []
    while (output := await sockets[0].receive_output(timeout=TIMEOUT))["type"] != "websocket.close":
        outputs.append(output)
    assert (output["code"], output["reason"]) == (4429, "too many frames")
    assert len(outputs) <= 5  # the burst's answers, and nothing for the refused frame
    await sockets[1].disconnect()


async def test_it_counts_binary_and_oversized_frames_against_the_budget_too(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(5):
        await sockets[0].send_to(bytes_data=b"\x00" * 10_000)
    codes = [(await error_frame(sockets[0]))["code"] for _ in range(5)]
    await sockets[0].send_to(text_data="x" * 10_000)
    assert codes == ["malformed"] * 5
    assert await closed(sockets[0]) == (4429, "too many frames")
    await sockets[1].disconnect()


async def test_it_closes_a_socket_past_its_addresss_frame_budget_shared_by_all_its_sockets(settings):
    settings.GAMES_WS_ADDRESS_RATE_BURST, settings.GAMES_WS_ADDRESS_RATE_PER_SECOND = 6, 0.001  # no refill within a slow run
    _, _, sockets, _ = await seated_sockets()  # both from the test client's one address
    for _ in range(3):
        for socket in sockets:
            await socket.send_json_to({"type": "chat", "text": "hi"})
    await sockets[0].send_json_to({"type": "chat", "text": "one too many"})
    assert await closed(sockets[0]) == (4429, "too many frames")
    await sockets[1].disconnect()


async def test_it_sends_nothing_on_a_socket_after_closing_it(settings):
    settings.GAMES_WS_RATE_BURST, settings.GAMES_WS_RATE_PER_SECOND = 5, 1
    _, _, sockets, _ = await seated_sockets()
    for _ in range(50):
        await sockets[0].send_to(text_data='{"type": "next_hand"}')
    await closed(sockets[0])
    # Its client has not gone yet: its frames still arrive, and the table still changes.
    await sockets[0].send_to(text_data='{"type": "next_hand"}')
    await sockets[1].send_json_to({"type": "chat", "text": "Still there?"})
    while (await receive(sockets[1]))["type"] != "chat":
        pass
    assert await sockets[0].receive_nothing(timeout=0.5)  # uvicorn logs each send after a close
    await sockets[1].disconnect()


async def refused_socket(code):
    """Accepted, and closed at once: a refusal before accept is a 403 a browser sees as 1006."""
    return await closed(await api_socket(code))


async def test_it_refuses_a_socket_past_the_tables_cap_with_4429_and_says_why(settings):
    settings.GAMES_WS_MAX_SOCKETS_PER_TABLE = 2
    code, _, sockets, _ = await seated_sockets()
    assert await refused_socket(code) == (4429, "too many sockets at this table")
    await close(*sockets)
    watcher = await api_socket(code)  # room again once they left
    await close(watcher)


async def test_it_refuses_a_socket_past_its_addresss_cap_with_4429_and_says_why(settings):
    settings.GAMES_WS_MAX_SOCKETS_PER_ADDRESS = 2
    code, _, sockets, _ = await seated_sockets()
    assert await refused_socket(code) == (4429, "too many sockets from this address")
    await close(*sockets)
    watcher = await api_socket(code)
    await close(watcher)


async def test_it_shows_a_socket_that_does_not_read_only_the_newest_state_then_ends_it(settings):
    settings.GAMES_WS_SEND_TIMEOUT_SECONDS = 1
    code, _, sockets, states = await seated_sockets()
    watcher = await api_socket(code)
    await receive(watcher)
    consumer = next(socket for socket in hub.hub().members[code] if socket.seat is None)
    sent, unblock = [], asyncio.Event()

    async def stuck_send(message):  # a client that has stopped reading: the server's send waits
        sent.append(message)
        await unblock.wait()
    consumer.base_send = stuck_send
    for _ in range(3):
        states = await play(sockets, states)
    assert consumer.held is not None and len(consumer.held) == 1  # the newest of three changes, alone
    await asyncio.wait_for(consumer.task, TIMEOUT)  # ended once its send timed out
    assert consumer.abandoned and len(sent) == 1
    await close(*sockets)


async def test_it_caps_a_tables_sockets_counted_from_their_handshakes_not_once_they_have_joined(settings):
    settings.GAMES_WS_MAX_SOCKETS_PER_TABLE = 3
    code, _, sockets, _ = await seated_sockets()
    crowd = await asyncio.gather(*(api_socket(code) for _ in range(5)))  # their handshakes at once
    codes = [output["type"] for output in await asyncio.gather(*(socket.receive_output(TIMEOUT) for socket in crowd))]
    assert codes.count("websocket.send") == 1  # one more fitted: its first state; the rest closed
    await close(*sockets, *crowd)


def test_a_socket_released_after_its_addresss_counts_were_forgotten_leaves_the_new_counts_alone(settings):
    """A test's stray socket, closed late by the garbage collector, must not lift the address
    budget of the socket that came after it (it did, and the budget test timed out)."""
    from games.live import limits

    stray = limits.take_socket("198.51.100.1", "T1")
    limits.addresses.clear()
    limits.tables.clear()
    settings.GAMES_WS_ADDRESS_RATE_BURST = 1
    current = limits.take_socket("198.51.100.1", "T2")
    limits.release_socket(stray, "T1")
    assert limits.frame_allowed("198.51.100.1")
    assert not limits.frame_allowed("198.51.100.1")
    limits.release_socket(current, "T2")
    assert limits.addresses == {}
