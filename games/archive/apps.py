from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    # Inside the games package, but its own app label: its migrations never
    # collide with live play's.
    name = "games.archive"
    label = "archive"
    verbose_name = "Archive"
