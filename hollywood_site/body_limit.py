"""An ASGI middleware that refuses an oversized request body (413) before Django reads it.

Django's ASGI handler reads the whole body into a temporary file before any view runs, and
`request.body` then holds it in memory: a 400 MB POST was read in full before it was
refused. Here the declared Content-Length is checked first, and the body's chunks are
counted as they arrive, so an undeclared (chunked) body stops at the limit too. A proxy in
front (`client_max_body_size`, docs/nginx/site.conf) should refuse it earlier still.
"""

import io
import json

from django.core.handlers.asgi import ASGIRequest
from django.utils import translation

from games.display.messages import message

STATUS = 413


class BodySizeLimit:
    def __init__(self, app, max_bytes):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if declared_length(scope) > self.max_bytes:
            return await refuse(scope, send)
        received, refused = 0, False

        async def counted_receive():
            nonlocal received, refused
            event = await receive()
            if event["type"] == "http.request" and not refused:
                received += len(event.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    await refuse(scope, send)
                    # Django stops reading at a disconnect and sends nothing.
                    return {"type": "http.disconnect"}
            return event

        async def send_unless_refused(event):
            if not refused:
                await send(event)

        await self.app(scope, counted_receive, send_unless_refused)


def declared_length(scope):
    """The Content-Length header as a number; 0 when there is none (the server has
    already refused a malformed one)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length" and value.strip().isdigit():
            return int(value)
    return 0


async def refuse(scope, send):
    """413 with the protocol's error shape, in the language the request asks for."""
    with translation.override(translation.get_language_from_request(ASGIRequest(scope, io.BytesIO()))):
        text = message("request_too_large")
    body = json.dumps({"error": {"code": "request_too_large", "message": text}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": STATUS, "headers": headers})
    await send({"type": "http.response.body", "body": body})
