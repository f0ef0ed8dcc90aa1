from django.apps import AppConfig
from django.urls import register_converter


class HollywoodSiteConfig(AppConfig):
    name = "hollywood_site"

    def ready(self):
        from games.identity import PublicIdConverter

        # Before any URLconf is loaded: the games' and the archive's both use it.
        register_converter(PublicIdConverter, "public_id")
