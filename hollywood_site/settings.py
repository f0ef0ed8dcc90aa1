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
    "django_htmx",
    "template_partials",
    "hollywood_site",
    "games",
    "games.archive",
    "rules",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "hollywood_site.urls"
ASGI_APPLICATION = "hollywood_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "hollywood_site.context_processors.site",
            ],
        },
    },
]


def database_settings():
    # No persistent connections: under ASGI each thread-pooled call would keep one open.
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    try:
        config = dj_database_url.parse(url)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from error
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE: a writer takes the lock when its transaction starts, so two moves
        # on one table queue instead of failing; WAL lets readers go on meanwhile.
        config["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    if config["ENGINE"] == "django.db.backends.postgresql":
        # channels' live-server tests need a fixed test database name (channels #2176).
        config["TEST"] = {"NAME": f"test_{config['NAME']}"}
    return config


DATABASES = {"default": database_settings()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def channel_layer_settings():
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL must start with redis://, rediss:// or unix://, not {url!r}")
    return {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [url]}}


CHANNEL_LAYERS = {"default": channel_layer_settings()}

# Live play. A player may claim a match once the player it waits for has been away this
# long (tests set it near zero); a control acts only on a state its player has seen for
# GAMES_MIN_SEEN_SECONDS (a double tap must not play the move that appeared under the
# finger); a seat may say GAMES_CHAT_BURST chat lines per GAMES_CHAT_WINDOW_SECONDS.
GAMES_CLAIM_AFTER_SECONDS = int(os.environ.get("GAMES_CLAIM_AFTER_SECONDS", "120"))
GAMES_MIN_SEEN_SECONDS = 0.4
GAMES_CHAT_BURST = 5
GAMES_CHAT_WINDOW_SECONDS = 10

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
# daphne alone (no collectstatic) serves a working site.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
# Set by the language switcher (hollywood_site.views.switch_language); a link from
# another site may still carry it, as it carries a visitor to a page.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60  # Django's default ends it with the browser session
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if not DEBUG:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if not DEBUG else "WARNING"},
}
