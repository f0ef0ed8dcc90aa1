from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # A pace of days a turn is run out by the task worker (games.live.timer listens to the owners).
        from games.live import timer  # noqa: F401
