from django.urls import path

from games.archive import views

app_name = "archive"

urlpatterns = [
    path("archive/", views.archive_list, name="list"),
    path("archive/matches/<public_id:match_id>/", views.match_detail, name="match"),
    path("archive/matches/<public_id:match_id>/review/", views.match_review, name="review"),
    # Before players/<player_id>/, which would take "claim" for an id.
    path("players/claim/", views.claim, name="claim"),
    path("players/<public_id:player_id>/", views.player_detail, name="player"),
]
