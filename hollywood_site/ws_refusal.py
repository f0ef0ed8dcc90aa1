"""Refusing a WebSocket handshake quietly: a close before accept, which the server answers
with 403, and one INFO line in the log. Never a traceback: anyone can send a hostile handshake
as often as they like, and an ERROR with a traceback for each would flood the log.

Not an HTTP 404 through ASGI's websocket.http.response extension: uvicorn 0.54's default
WebSocket implementation sends it but then logs an ERROR ("returned without completing handshake")."""

import logging

logger = logging.getLogger("hollywood_site.websocket")


async def refuse(scope, receive, send, reason):
    await receive()  # the handshake's websocket.connect, which comes before any answer
    client = scope.get("client") or ("?", 0)
    logger.info("WebSocket %s from %s refused: %s", scope.get("path", ""), client[0], reason)
    await send({"type": "websocket.close"})


class KnownPaths:
    """Hands a socket to `router` (channels' URLRouter) when one of its routes matches its
    path, and refuses it otherwise: the router itself would raise, a 500 and a traceback."""

    def __init__(self, router):
        self.router = router

    async def __call__(self, scope, receive, send):
        path = scope["path"][len(scope.get("root_path", "")):].lstrip("/")
        if any(route.pattern.match(path) for route in self.router.routes):
            return await self.router(scope, receive, send)
        return await refuse(scope, receive, send, "no such path")
