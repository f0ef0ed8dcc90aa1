"""The archive's JSON and CSV, under the site's non-translated `api/` prefix."""

from django.urls import path

from games.archive import api

app_name = "archive_api"

urlpatterns = [
    path("matches/<public_id:match_id>", api.match_json, name="match"),
    path("matches/<public_id:match_id>/sheet.csv", api.match_csv, name="sheet_csv"),
    path("matches/<public_id:match_id>/review", api.match_review, name="review"),
    path("players/<public_id:player_id>", api.player_json, name="player"),
]
