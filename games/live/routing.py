from django.urls import path

from games.live import consumers

websocket_urlpatterns = [
    path("ws/tables/<str:code>/", consumers.BrowserTableConsumer.as_asgi()),
    path("ws/api/tables/<str:code>/", consumers.ApiTableConsumer.as_asgi()),
]
