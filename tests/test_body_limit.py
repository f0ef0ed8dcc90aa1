"""An oversized request body is refused with 413 before Django reads it: from its declared
Content-Length at once, and while it streams when none is declared."""

import json

import pytest
from channels.testing import ApplicationCommunicator
from django.conf import settings

from games.models import Table
from hollywood_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

CHUNK = b" " * 16 * 1024


def post_scope(path="/api/tables", content_length=None, language="de"):
    headers = [(b"host", b"localhost"), (b"content-type", b"application/json"), (b"accept-language", language.encode())]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    return {"type": "http", "http_version": "1.1", "method": "POST", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "scheme": "http", "headers": headers,
            "client": ("127.0.0.1", 40000), "server": ("localhost", 80)}


async def response_of(communicator):
    start = await communicator.receive_output(timeout=5)
    body = await communicator.receive_output(timeout=5)
    return start["status"], json.loads(body["body"])


async def test_it_refuses_a_declared_oversized_body_before_reading_a_byte():
    communicator = ApplicationCommunicator(application, post_scope(content_length=400 * 1024 * 1024))
    status, body = await response_of(communicator)
    assert status == 413 and body["error"]["code"] == "request_too_large"
    assert body["error"]["message"] == "Diese Anfrage ist zu groß."
    await communicator.wait(timeout=5)  # the application ended without being sent any body
    assert not await Table.objects.aexists()


async def test_it_stops_reading_an_undeclared_body_at_the_limit():
    communicator = ApplicationCommunicator(application, post_scope())
    chunks_to_pass_the_limit = settings.REQUEST_BODY_MAX_BYTES // len(CHUNK) + 1
    for _ in range(chunks_to_pass_the_limit):
        await communicator.send_input({"type": "http.request", "body": CHUNK, "more_body": True})
    status, body = await response_of(communicator)
    assert status == 413 and body["error"]["code"] == "request_too_large"
    # Finished with the body still unfinished (more_body was never False): Django stopped reading.
    await communicator.wait(timeout=5)
    assert not await Table.objects.aexists()


async def test_it_lets_a_body_within_the_limit_through():
    body = json.dumps({"name": "Ana"}).encode()
    communicator = ApplicationCommunicator(application, post_scope(content_length=len(body)))
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    status, answer = await response_of(communicator)
    assert status == 201 and answer["seat"] == 0
    assert await Table.objects.aexists()


async def test_it_refuses_an_oversized_form_too():
    communicator = ApplicationCommunicator(application, post_scope("/en/tables/open/", 10**7, "en"))
    status, body = await response_of(communicator)
    assert status == 413 and body["error"]["message"] == "That request is too large."
