from django.urls import path

from games.push import views

app_name = "push"

urlpatterns = [
    path("t/<public_id:code>/push/", views.subscribe, name="subscribe"),
    path("t/<public_id:code>/push/stop/", views.unsubscribe, name="unsubscribe"),
]
