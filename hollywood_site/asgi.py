import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hollywood_site.settings")
# Django must be set up before the consumers (and their models) are imported.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from games.live.routing import websocket_urlpatterns  # noqa: E402
from hollywood_site.body_limit import BodySizeLimit  # noqa: E402
from hollywood_site.origin import SameOriginValidator  # noqa: E402
from hollywood_site.ws_refusal import KnownPaths  # noqa: E402

# A process holding a thousand live tables holds millions of small objects; with Python's
# default thresholds its collector walked them all several times a second. Everything loaded so
# far stays put (freeze), and young objects are collected less eagerly.
gc.freeze()
gc.set_threshold(50_000, 20, 100)

application = ProtocolTypeRouter(
    {
        "http": BodySizeLimit(django_application, settings.REQUEST_BODY_MAX_BYTES),
        "websocket": SameOriginValidator(CookieMiddleware(KnownPaths(URLRouter(websocket_urlpatterns)))),
    }
)
