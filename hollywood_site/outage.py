"""While the database is away, a page answers 503 in the visitor's language and the JSON API
a 503 in JSON, instead of a 500 page that says nothing of coming back."""

from django.shortcuts import render

from games.errors import GameError
from games.live.api import error_response
from games.live.outage import DATABASE_AWAY

RETRY_AFTER_SECONDS = 5


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_AWAY):
            return None
        if request.path.startswith("/api/"):
            response = error_response(request, GameError("database_unavailable"))
        else:
            response = render(request, "503.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
