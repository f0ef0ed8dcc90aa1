"""Settings for Hollywood Gin: one file, driven by environment variables.

The embedded defaults run a fresh checkout for development (SQLite, the in-memory
channel layer). Production sets DJANGO_DEBUG=false, DJANGO_SECRET_KEY,
DJANGO_ALLOWED_HOSTS, and usually DATABASE_URL and REDIS_URL. A bad value fails
loudly at start-up, never silently later.
"""

import os
import subprocess
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from hollywood_site import __version__

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_float(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None
    if not 0 <= number < float("inf"):
        raise ImproperlyConfigured(f"{name} must be zero or more, not {value!r}")
    return number


def env_list(name, default):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def short_commit():
    """The commit the site runs, for the footer: GIT_COMMIT, else asked of git."""
    if os.environ.get("GIT_COMMIT"):
        return os.environ["GIT_COMMIT"][:7]
    try:
        output = subprocess.run(
            ["git", "rev-parse", "--short=7", "HEAD"],
            cwd=BASE_DIR, capture_output=True, text=True, timeout=5, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return output.stdout.strip()


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false")
    SECRET_KEY = "development-only-key-never-used-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false")

SITE_VERSION = __version__
SITE_COMMIT = short_commit()

INSTALLED_APPS = [
    # daphne first: its runserver serves WebSockets too.
    "daphne",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "channels",
    "csp",
    "django_htmx",
    "template_partials",
    "hollywood_site",
    "games",
    "games.archive",
    "games.push",
    "rules",
    "django_tasks",
    "django_tasks.backends.database",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view that meets the database away answers 503 (JSON on the API), not 500.
    "hollywood_site.outage.DatabaseOutageMiddleware",
    # Turns django-ratelimit's refusal into hollywood_site.views.rate_limited's 429.
    "django_ratelimit.middleware.RatelimitMiddleware",
]

ROOT_URLCONF = "hollywood_site.urls"
ASGI_APPLICATION = "hollywood_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's own loaders (cached, then the folder, then the apps'), the folder's
            # taking the indentation out of the live table's fragments (games/live/templates_loader.py),
            # inside django-template-partials' loader ({% partialdef %}). Named here first, it
            # is left as it is: without it, template_partials' ready() replaces the whole list
            # with Django's default loaders.
            "loaders": [("template_partials.loader.Loader", [("django.template.loaders.cached.Loader", [
                "games.live.templates_loader.Loader", "django.template.loaders.app_directories.Loader"])])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "hollywood_site.context_processors.site",
                "games.live.yours.context",
            ],
        },
    },
]


def database_settings():
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    try:
        config = dj_database_url.parse(url)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from error
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE: a writer takes the lock when its transaction starts, so two moves
        # on one table queue instead of failing; WAL lets readers go on meanwhile.
        # synchronous=NORMAL: in WAL mode a commit survives any crash of the server (the OS
        # has it); only a power cut may lose the last commits. Syncing every commit to disk
        # cost 2.5 ms a move here, most of a move's time.
        config["OPTIONS"] = {"transaction_mode": "IMMEDIATE",
                             "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    # Closed after each HTTP request (Django runs each in a thread of its own under ASGI, where
    # a kept connection would be left behind). Live play's sockets keep theirs: one thread, one
    # connection a process (games.live.database).
    config["CONN_MAX_AGE"] = 0
    if config["ENGINE"] == "django.db.backends.postgresql":
        # channels' live-server tests need a fixed test database name (channels #2176).
        config["TEST"] = {"NAME": f"test_{config['NAME']}"}
    return config


DATABASES = {"default": database_settings()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def channel_layer_settings():
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return {"BACKEND": "games.live.layers.InMemoryChannelLayer"}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL must start with redis://, rediss:// or unix://, not {url!r}")
    # How the processes tell each other of a change (games.live.hub), measured by
    # benchmarks/load.py --config two --layer: "direct" (the default) is Redis pub/sub through
    # redis-py (games.live.layers.RedisPubSubLayer); "pubsub" is channels-redis's
    # RedisPubSubChannelLayer, "core" its RedisChannelLayer (lists and Lua scripts).
    backend = REDIS_LAYERS.get(os.environ.get("REDIS_LAYER", "direct"))
    if backend is None:
        raise ImproperlyConfigured(f"REDIS_LAYER must be one of {', '.join(REDIS_LAYERS)}")
    return {"BACKEND": backend, "CONFIG": {"hosts": [url]}}


REDIS_LAYERS = {"direct": "games.live.layers.RedisPubSubLayer",
                "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "core": "channels_redis.core.RedisChannelLayer"}


CHANNEL_LAYERS = {"default": channel_layer_settings()}


def cache_settings():
    # The rate limits' counts (games.live.limits) live here: shared by every process through
    # Redis, per process in memory without it (one process, as development runs).
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {"BACKEND": "hollywood_site.cache.ForgivingRedisCache", "LOCATION": url, "KEY_PREFIX": "hollywood"}


CACHES = {"default": cache_settings()}

# Per client address (games.live.limits): far above a person, far below a flood (one client
# opened 1,205 tables in 20 s). Over the rate: a 429, or a socket closed with 4429.
# DJANGO_RATE_LIMITS changes them, e.g. "open_table=20/m,join=30/m,connect=60/m" (the load
# benchmark, one address opening a thousand tables, raises them).
RATE_LIMITS = {"open_table": "20/m", "join": "30/m", "connect": "60/m", "review": "20/m", "review_poll": "120/m",
               "push": "30/m"} | dict(
    item.split("=", 1) for item in env_list("DJANGO_RATE_LIMITS", [])
)
RATELIMIT_VIEW = "hollywood_site.views.rate_limited"
# Without the cache (Redis down) the limits let requests through: playing goes on.
RATELIMIT_FAIL_OPEN = True

# Work off the request path (the computer's reviews of matches, push notices, a pace's deadlines) goes
# through Django's Tasks (the django-tasks backport), queued in the database: `manage.py
# db_worker` runs them (dev.py serve starts one beside the site; README: workers in production).
TASKS = {"default": {"BACKEND": "django_tasks.backends.database.DatabaseBackend"}}
# A review whose worker has not finished a hand for this long is taken for dead (killed, out of
# memory) and queued again; it goes on from the hands already stored.
GAMES_REVIEW_STALE_SECONDS = env_int("GAMES_REVIEW_STALE_SECONDS", 120)

# Tables and matches nobody came back to, ended by `manage.py end_stale_tables`.
STALE_UNJOINED_TABLE_HOURS = 24  # a table whose second seat was never taken
STALE_MATCH_DAYS = 14  # a match with no move and no one at the table

# Live play: every GAMES_* setting, read from the environment where a deployment or a test
# changes it (loud on a bad value: ImproperlyConfigured at start-up).
# Frames a WebSocket may send: bursts, then a steady rate a second (games.live.consumers). Far above
# any human; the load benchmark raises them to play at full speed.
GAMES_WS_RATE_BURST = env_int("GAMES_WS_RATE_BURST", 60)
GAMES_WS_RATE_PER_SECOND = env_int("GAMES_WS_RATE_PER_SECOND", 30)
# The same for all the sockets of one client address in a process together (games.live.limits).
GAMES_WS_ADDRESS_RATE_BURST = env_int("GAMES_WS_ADDRESS_RATE_BURST", 300)
GAMES_WS_ADDRESS_RATE_PER_SECOND = env_int("GAMES_WS_ADDRESS_RATE_PER_SECOND", 150)
# Sockets open at once in a process, from one client address and at one table (spectators
# included); past either a socket is closed with 4429 and a reason (docs/protocol.md).
GAMES_WS_MAX_SOCKETS_PER_ADDRESS = env_int("GAMES_WS_MAX_SOCKETS_PER_ADDRESS", 100)
GAMES_WS_MAX_SOCKETS_PER_TABLE = env_int("GAMES_WS_MAX_SOCKETS_PER_TABLE", 200)
# A frame a client has not taken in this long (it does not read) ends its socket; meanwhile
# only the newest state waits for it.
GAMES_WS_SEND_TIMEOUT_SECONDS = env_float("GAMES_WS_SEND_TIMEOUT_SECONDS", 10)
# Live tables a process keeps in memory (games.live.tables), and the moves they may hold in all:
# about 2 KB a move, so the defaults bound them to some tens of megabytes.
# (GAMES_ROOMS and GAMES_ROOM_MOVES, their former names, are still read.)
GAMES_TABLES = env_int("GAMES_TABLES", env_int("GAMES_ROOMS", 5000))
# The computer's pause before it moves, in seconds, so a person can follow its moves.
GAMES_COMPUTER_PAUSE = env_float("GAMES_COMPUTER_PAUSE", 0.7)
# How long the computer may think a move, in milliseconds of one core: choose_move's budget_ms
# (games.computer.DEFAULT_BUDGET_MS is the same default).
GAMES_COMPUTER_BUDGET_MS = env_int("GAMES_COMPUTER_BUDGET_MS", 100)
# The processes the computer thinks in, for all the tables of a server process
# (games.live.computer_seat): one leaves the other core of a two-core machine to the people.
GAMES_COMPUTER_PROCESSES = env_int("GAMES_COMPUTER_PROCESSES", 1)
GAMES_TABLE_MOVES = env_int("GAMES_TABLE_MOVES", env_int("GAMES_ROOM_MOVES", 200_000))
# A player may claim a match once the player it waits for has been away this
# long (tests set it near zero); a control acts only on a state its player has seen for
# GAMES_MIN_SEEN_SECONDS (a double tap must not play the move that appeared under the
# finger); a seat may say GAMES_CHAT_BURST chat lines per GAMES_CHAT_WINDOW_SECONDS.
GAMES_CLAIM_AFTER_SECONDS = env_int("GAMES_CLAIM_AFTER_SECONDS", 120)
# Each server process beats its sockets' presence this often, and a process silent for the
# timeout is gone (killed, crashed): its sockets count no more (games.live.presence). A killed
# process's seats show away within timeout + the hub's 2 s check: 10 s. A process whose loop
# stalls past the timeout shows its seats away until its next beat.
GAMES_PRESENCE_BEAT_SECONDS = env_int("GAMES_PRESENCE_BEAT_SECONDS", 2)
GAMES_PRESENCE_TIMEOUT_SECONDS = env_int("GAMES_PRESENCE_TIMEOUT_SECONDS", 8)
# The browser tests set GAMES_MIN_SEEN_SECONDS near zero (every move would wait it), except
# those that test the guard itself; table.js reads it from the page (data-arm-ms).
GAMES_MIN_SEEN_SECONDS = env_float("GAMES_MIN_SEEN_SECONDS", 0.4)
GAMES_CHAT_BURST = 5
# The turn clocks a table may be opened with, in seconds a turn (off by default), and the bank
# each seat may draw on once over a match when a turn runs longer (games.live.clock). When a
# seat's time runs out, the computer plays its move at the club level.
GAMES_CLOCKS = (30, 60)
GAMES_CLOCK_BANK_SECONDS = env_int("GAMES_CLOCK_BANK_SECONDS", 60)
# The paces a table may be played at besides real time, in days a turn (games.live.pace), and
# each seat's spare hours over a whole match; a seat whose time runs out loses the match.
GAMES_PACES = (1, 2, 3)
GAMES_PACE_BANK_HOURS = env_int("GAMES_PACE_BANK_HOURS", 24)
GAMES_CHAT_WINDOW_SECONDS = 10
# Web Push (games.push): the VAPID private key (base64url, as `manage.py vapid_key` writes it
# to .vapid_private_key, git-ignored, on the first `dev.py serve`), required in production;
# the contact the push services are given; how long a push service may take to answer.
VAPID_KEY_FILE = BASE_DIR / ".vapid_private_key"
# The file serves development only: a production key comes from the environment, not the checkout.
PUSH_VAPID_PRIVATE_KEY = os.environ.get("PUSH_VAPID_PRIVATE_KEY", "").strip() or (
    VAPID_KEY_FILE.read_text().strip() if DEBUG and VAPID_KEY_FILE.is_file() else "")
if not DEBUG and not PUSH_VAPID_PRIVATE_KEY:
    raise ImproperlyConfigured("PUSH_VAPID_PRIVATE_KEY must be set when DJANGO_DEBUG is false "
                               "(manage.py vapid_key --print makes one)")
PUSH_VAPID_SUBJECT = os.environ.get("PUSH_VAPID_SUBJECT", "mailto:webmaster@localhost")
PUSH_TIMEOUT_SECONDS = env_float("PUSH_TIMEOUT_SECONDS", 5)
# Tests only, never a deployment: every table opened deals from this seed and its rules and
# host's name, so a browser test meets the same cards on every run (unset: shuffled for real).
GAMES_DEAL_SEED = os.environ.get("GAMES_DEAL_SEED") or None

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("de", _("German")),
    ("cs", _("Czech")),
    ("tr", _("Turkish")),
]
# The switcher lists each language as its speakers write it at the head of a list
# (Django's name_local says "česky", "español": an adverb, and lower case).
LANGUAGE_NAMES_IN_THEIR_OWN_WORDS = {
    "en": "English",
    "es": "Español",
    "de": "Deutsch",
    "cs": "Čeština",
    "tr": "Türkçe",
}
LOCALE_PATHS = [BASE_DIR / "locale"]
# Czech writes a date with spaces ("19. 11. 2026"); Django's own Czech formats do not.
FORMAT_MODULE_PATH = ["hollywood_site.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development WhiteNoise serves straight from the app and project folders, so
# the server alone (no collectstatic) serves a working site.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Every form and API body of the site is a few hundred bytes: a larger request is refused
# (413) by hollywood_site.body_limit before Django reads it, and Django's own check agrees.
REQUEST_BODY_MAX_BYTES = 64 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
# Set by the language switcher (hollywood_site.views.switch_language); a link from
# another site may still carry it, as it carries a visitor to a page.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60  # Django's default ends it with the browser session
SECURE_CONTENT_TYPE_NOSNIFF = True
# Believe a proxy's X-Forwarded-Proto only when told to: without a proxy that sets it,
# any client could claim HTTPS. The WebSocket Origin check (hollywood_site.origin) too.
TRUST_X_FORWARDED_PROTO = env_bool("DJANGO_TRUST_X_FORWARDED_PROTO", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUST_X_FORWARDED_PROTO else None
SECURE_REFERRER_POLICY = "same-origin"

# Everything the site loads is its own, and none of it inline: no inline script or style,
# no style="" or on…= attribute (htmx's own indicator style is turned off in base.html).
# Always on, in development and tests too, so a page that needs more fails where it is made.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],  # the table's WebSocket: 'self' covers ws:// and wss:// too
        "worker-src": [SELF],  # the push notices' service worker (static/js/push-sw.js)
        "form-action": [SELF],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
    },
}
# No feature the site does not use; the copy buttons write to the clipboard.
PERMISSIONS_POLICY = {
    "accelerometer": [], "camera": [], "display-capture": [], "geolocation": [], "gyroscope": [],
    "magnetometer": [], "microphone": [], "midi": [], "payment": [], "usb": [], "interest-cohort": [],
    "clipboard-write": ["self"],
}

if not DEBUG:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    # Both reach beyond this site (every subdomain; browsers' built-in lists, slow to
    # leave), so they are the domain owner's choice, not a default.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if not DEBUG else "WARNING"},
}
