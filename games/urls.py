from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/open/", views.open_table, name="open"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/claim/", views.claim, name="claim"),
]
