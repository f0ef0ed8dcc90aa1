from django.urls import path

from games.live import views

app_name = "games"

urlpatterns = [
    path("tables/open/", views.open_table, name="open"),
    path("tables/", views.your_tables, name="yours"),
    path("tables/waiting/", views.waiting_badge, name="waiting_badge"),
    path("t/<public_id:code>/", views.table_page, name="table"),
    path("t/<public_id:code>/join/", views.join, name="join"),
    path("t/<public_id:code>/claim/", views.claim, name="claim"),
    path("t/<public_id:code>/revoke/", views.revoke, name="revoke"),
]
