from django.urls import path

from games.live import api

app_name = "api"

urlpatterns = [
    path("tables", api.open_table, name="open"),
    path("tables/<str:code>/join", api.join, name="join"),
]
