"""An address or a parameter that cannot name anything (a NUL byte, a wrong length) is a
404 or a 400, never a server error: PostgreSQL refuses a NUL byte in a query, so it must
never get that far."""

import pytest
from games.live.opening import open_table
from channels.testing import WebsocketCommunicator

from hollywood_site.asgi import application
from tests.live.helpers import HOST, ORIGIN, TIMEOUT

pytestmark = pytest.mark.django_db

BAD_PAGES = [
    "/en/t/%00/", "/en/t/%00/join/", "/en/t/abc/", "/en/players/%00/", "/api/players/%00",
    "/api/matches/%00", "/en/archive/matches/%00/", "/en/archive/?player=%00",
    "/en/archive/?player_id=%00", "/en/archive/?player_id=abc", "/en/archive/?player_id=%00%00%00%00%00%00%00%00%00%00%00%00",
]


@pytest.mark.parametrize("path", BAD_PAGES)
def test_it_answers_an_address_that_names_nothing_with_a_404_or_400(client, path):
    assert client.get(path).status_code in (400, 404)


@pytest.mark.parametrize("path", ["/api/tables/%00/join", "/api/tables/abc/join", "/api/tables/%00%00%00%00%00%00%00%00%00%00%00%00/join"])
def test_it_answers_a_join_of_a_code_that_cannot_exist_with_unknown_table(client, path):
    response = client.post(path, "{}", content_type="application/json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_table"


@pytest.mark.parametrize("path", ["/en/t/%00/join/", "/en/t/%00/claim/"])
def test_it_answers_a_form_posted_to_a_code_that_cannot_exist_with_a_404(client, path):
    assert client.post(path, {"name": "Ana", "token": "x"}).status_code == 404


def test_it_still_finds_a_table_by_its_real_code(client):
    table = open_table("Ana").table
    assert client.get(f"/en/t/{table.code}/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/tables/%00/", "/ws/api/tables/%00/", "/ws/tables/abc/"])
async def test_it_closes_a_socket_to_a_code_that_cannot_exist_as_an_unknown_table(path):
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
    accepted, _ = await socket.connect(timeout=TIMEOUT)
    assert accepted
    assert (await socket.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close", "code": 4404}
