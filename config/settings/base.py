"""Settings for every environment, read from environment variables.

Nothing secret lives here. With ``DEBUG`` off (the default) the process refuses to start
unless ``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``EMAIL_BACKEND`` come from the environment. See
docs/configuration.md.

| variable | meaning | unset |
|---|---|---|
| DEBUG | 1/true for development | off |
| SECRET_KEY | Django's signing key | required unless DEBUG |
| ALLOWED_HOSTS | comma-separated host names | required unless DEBUG |
| DATABASE_URL | e.g. postgres://user@host:5432/maedn | SQLite file ``db.sqlite3`` |
| CELERY_BROKER_URL | redis://… or amqp://… | tasks run in-process (eager) |
| CELERY_RESULT_BACKEND | result store | the Redis broker, ``rpc://`` for AMQP |
| EMAIL_BACKEND | ``smtp``, ``console`` or a dotted path | required unless DEBUG |
| SITE_URL | the address used in e-mails | http://localhost:8000 |
| NOTIFY_DEADLINES_SECONDS | how often deadlines and overdue games are checked | 900 |
| CHANNEL_LAYER_URL | redis://… for live play (else REDIS_URL) | in-memory layer |
| CHANNEL_LAYER_BACKEND | pubsub (Redis publish/subscribe) or core | pubsub |
| LIVE_TURN_SECONDS | default turn timer of online rooms | 60 |

The rest (timeouts, ALLOW_PLAIN_HTTP, STATIC_ROOT, …) is listed in docs/configuration.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in TRUE_WORDS


def env_rate(name: str, default: str) -> str | None:
    """A throttle rate such as ``30/min`` from the environment; ``off`` switches it off."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    return None if value.lower() in {"off", "none", "0"} else value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or list(default or [])


DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG:
    SECRET_KEY = SECRET_KEY or "django-insecure-development-only-key-do-not-use-in-production"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]", "testserver"]
else:
    missing = [
        name
        for name, value in (("SECRET_KEY", SECRET_KEY), ("ALLOWED_HOSTS", ALLOWED_HOSTS))
        if not value
    ]
    if missing:
        raise ImproperlyConfigured(
            f"DEBUG is off, so {' and '.join(missing)} must be set in the environment "
            "(for local development set DEBUG=1)."
        )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # runserver serves WebSockets too (live play)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # numbers grouped by the language (1,500 / 1.500)
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "tournaments",
    "ratings",
    "accounts",
    "notifications",  # above tournaments and accounts (docs/architecture.md)
    "channels",
    "live",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "games.middleware.ReplayBusyMiddleware",  # before the CSRF check reads a body
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# sessions read from the shared cache, kept in the database; safe across a Redis outage
# (config/sessions.py): a signed-in visit reads no session row
SESSION_ENGINE = "config.sessions"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.notifications",
            ],
            # the page helpers live with the pages (tournaments/web/), not at the app's root
            "libraries": {
                "maedn": "tournaments.web.templatetags.maedn",
                "championship": "tournaments.web.templatetags.championship",
                "rated": "ratings.templatetags.rated",
            },
        },
    },
]

# --- Database: DATABASE_URL, or the embedded SQLite file --------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # an unreachable database host fails a connection attempt after this many seconds
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "5"))
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"

# --- E-mail (password reset) ------------------------------------------------------------
# With DEBUG off, EMAIL_BACKEND must be chosen in the environment: `smtp` sends mail through
# EMAIL_HOST; `console` writes every mail, password-reset links included, to the server's
# log, and is only for a deployment whose log nobody else can read (`check --deploy` warns).
EMAIL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or ("console" if DEBUG else "")
if not EMAIL_BACKEND:
    raise ImproperlyConfigured(
        "DEBUG is off, so EMAIL_BACKEND must be set in the environment: `smtp` (with "
        "EMAIL_HOST, EMAIL_PORT, …) to send password-reset mails, or `console` to write them, "
        "reset links included, to the server's log on purpose (see docs/configuration.md)."
    )
EMAIL_BACKEND = EMAIL_BACKENDS.get(EMAIL_BACKEND, EMAIL_BACKEND)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or str(BASE_DIR / "var" / "mail")

# a league's archive.json, once exported at a revision, is kept here and sent as a file
# until the league changes (tournaments/api/exports.py; docs/api.md): "" keeps none
ARCHIVE_DIR = os.environ.get("ARCHIVE_DIR", str(BASE_DIR / "var" / "archives"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# The site's address in e-mails (links to games, one-click unsubscribe).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")

# Organizing (issue 11 point 5): only accounts with a confirmed e-mail address may create
# leagues when set; each organizer may create at most this many players without accounts.
ORGANIZERS_MUST_BE_VERIFIED = env_bool("ORGANIZERS_MUST_BE_VERIFIED")
# Rated play (issue 32, docs/ratings.md "Rated leagues"): "sanctioned" (default) rates only the
# leagues a rating officer sanctioned; "all" (a private club install) rates every league whose
# owner is verified.
RATED_LEAGUES = os.environ.get("RATED_LEAGUES", "sanctioned")
if RATED_LEAGUES not in ("sanctioned", "all"):
    raise ValueError(f"RATED_LEAGUES must be 'sanctioned' or 'all', not {RATED_LEAGUES!r}")
ACCOUNTLESS_PLAYERS_PER_ORGANIZER = int(os.environ.get("ACCOUNTLESS_PLAYERS_PER_ORGANIZER", "200"))
# Mails sent on request (invitations, address confirmations): at most this many per sending
# account and per recipient address, per hour and per day (tournaments/services/mail_limits.py)
MAIL_LIMIT_SENDER_PER_HOUR = int(os.environ.get("MAIL_LIMIT_SENDER_PER_HOUR", "30"))
MAIL_LIMIT_SENDER_PER_DAY = int(os.environ.get("MAIL_LIMIT_SENDER_PER_DAY", "200"))
MAIL_LIMIT_RECIPIENT_PER_HOUR = int(os.environ.get("MAIL_LIMIT_RECIPIENT_PER_HOUR", "3"))
MAIL_LIMIT_RECIPIENT_PER_DAY = int(os.environ.get("MAIL_LIMIT_RECIPIENT_PER_DAY", "10"))
# Unsubscribe links in notification mails stop working after this many days
UNSUBSCRIBE_MAX_AGE_DAYS = int(os.environ.get("UNSUBSCRIBE_MAX_AGE_DAYS", "90"))

# --- Cache: Redis (CACHE_URL) shared by every process: throttle counters, cached pages ----
# With DEBUG off it must be chosen: a per-process cache would give each web process its own
# throttle counters (the limits multiply with the processes). `locmem://` is the explicit
# choice of a single-process deployment.
CACHE_URL = os.environ.get("CACHE_URL", "").strip() or ("locmem://" if DEBUG else "")
if not CACHE_URL:
    raise ImproperlyConfigured(
        "DEBUG is off, so CACHE_URL must be set in the environment: redis://host:6379/1 (a "
        "cache every web process shares, so throttles hold), or locmem:// for a single process."
    )
# A Redis outage never fails a request (config/cache.py): every call gives up after
# CACHE_IO_TIMEOUT, the outage is logged once, and for CACHE_RETRY_SECONDS at a time the
# process serves from a bounded memory of its own (throttle counters; pages are rendered).
CACHE_IO_TIMEOUT = float(os.environ.get("CACHE_IO_TIMEOUT", "0.5"))
CACHE_RETRY_SECONDS = float(os.environ.get("CACHE_RETRY_SECONDS", "5"))
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_IO_TIMEOUT,
                "socket_timeout": CACHE_IO_TIMEOUT,
                "RETRY_SECONDS": CACHE_RETRY_SECONDS,
            },
        }
    }
elif not CACHE_URL.startswith("locmem://"):
    raise ImproperlyConfigured(f"CACHE_URL must be redis://… or locmem://, not {CACHE_URL!r}")

# --- Celery: CELERY_BROKER_URL, or in-process (eager) execution ---------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
if "CELERY_RESULT_BACKEND" in os.environ:
    CELERY_RESULT_BACKEND = os.environ["CELERY_RESULT_BACKEND"] or None
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_RESULT_BACKEND = CELERY_BROKER_URL
elif CELERY_BROKER_URL.startswith(("amqp://", "pyamqp://")):
    CELERY_RESULT_BACKEND = "rpc://"
else:
    CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies mid-run is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# Publishing a task must never hold a web request: every broker and result-store operation
# of the web process gives up after a few seconds (docs/configuration.md, "Broker outages").
# The standings catch-up (beat, below) recomputes whatever a failed publish left stale.
CELERY_IO_TIMEOUT = float(os.environ.get("CELERY_IO_TIMEOUT", "2"))
CELERY_BROKER_CONNECTION_TIMEOUT = CELERY_IO_TIMEOUT
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_REDIS_SOCKET_TIMEOUT = CELERY_IO_TIMEOUT
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = CELERY_IO_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 0}}

# --- Move analyses (games/analysis.py, tournaments/services/analyses.py) -------------------
# Every counted game's log is analysed on the learned evaluator (games/engine/analysis/) on a
# worker of its own queue, so analyses never delay the standings:
# run `celery -A config worker -Q analysis`.
ANALYSIS_ENABLED = env_bool("ANALYSIS_ENABLED", default=True)
ANALYSIS_QUEUE = os.environ.get("ANALYSIS_QUEUE", "analysis")
# at most this many analyses of one league owner's games in the queue; more wait, unsent,
# for the catch-up (tournaments/services/analyses.py)
ANALYSIS_QUEUED_PER_ORGANIZER = int(os.environ.get("ANALYSIS_QUEUED_PER_ORGANIZER", "10"))
CELERY_TASK_ROUTES = {"games.analyse": {"queue": ANALYSIS_QUEUE}}
# Bounds on one analysis (docs/analysis.md, "Bounds"): a log with more events is not analysed
# (the page says it was too long); the engine stops a walk past ANALYSIS_MAX_CPU_SECONDS of
# CPU; the task's soft time limit (wall seconds: SoftTimeLimitExceeded, the row marked too
# long) and hard limit (the worker process is killed) catch what the engine's check cannot.
# A league game of 400-600 events takes 2-4 CPU-s; a valid log may have 50,000 events.
ANALYSIS_MAX_EVENTS = int(os.environ.get("ANALYSIS_MAX_EVENTS", "3000"))
ANALYSIS_MAX_CPU_SECONDS = float(os.environ.get("ANALYSIS_MAX_CPU_SECONDS", "60"))
ANALYSIS_SOFT_TIME_LIMIT = int(os.environ.get("ANALYSIS_SOFT_TIME_LIMIT", "180"))
ANALYSIS_TIME_LIMIT = int(os.environ.get("ANALYSIS_TIME_LIMIT", "240"))

# --- REST framework ------------------------------------------------------------------------
#: the largest log (bytes) a visitor who is not logged in may replay on /replay/
REPLAY_ANONYMOUS_MAX_BYTES = int(os.environ.get("REPLAY_ANONYMOUS_MAX_BYTES", str(64 * 1024)))
# /replay/ draws at most this many events of a pasted log, for everyone (the validator
# still checks all of them): bounds what one request costs (games/views.py)
REPLAY_PAGE_MAX_EVENTS = int(os.environ.get("REPLAY_PAGE_MAX_EVENTS", "3000"))
# /replay/ checks and draws at most this many pasted logs at once on the whole site (slots
# in the shared cache; 0: no bound): a flood of replays from several accounts never holds
# every web worker, so a visitor's page is answered (issue 32 point 10; games/views.py)
REPLAY_CONCURRENT = int(os.environ.get("REPLAY_CONCURRENT", "1"))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "EXCEPTION_HANDLER": "tournaments.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "submissions": env_rate("THROTTLE_SUBMISSIONS", "30/min"),
        "login": env_rate("THROTTLE_LOGIN", "20/min"),
        "login_account": env_rate("THROTTLE_LOGIN_ACCOUNT", "10/min"),
        "password_reset": env_rate("THROTTLE_PASSWORD_RESET", "10/hour"),
        "password_reset_email": env_rate("THROTTLE_PASSWORD_RESET_EMAIL", "3/hour"),
        "replay": env_rate("THROTTLE_REPLAY", "20/min"),
        "signup": env_rate("THROTTLE_SIGNUP", "10/hour"),
        "signup_day": env_rate("THROTTLE_SIGNUP_DAY", "20/day"),
        "exports": env_rate("THROTTLE_EXPORTS", "10/min"),
        "league_create": env_rate("THROTTLE_LEAGUE_CREATE", "10/hour"),
    },
    # How many reverse proxies in front of the site append to X-Forwarded-For. 0: the
    # client address is REMOTE_ADDR and the header is ignored (a client cannot choose its
    # own address to escape the throttles).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0") or 0),
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "MÄDN League API",
    "DESCRIPTION": "Leagues, schedules, game logs and standings for Mensch ärgere Dich nicht.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # a request's string the API refuses blank says minLength: 1 (issue 32)
    "ENFORCE_NON_BLANK_FIELDS": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.declare_query_bounds",
    ],
    "ENUM_NAME_OVERRIDES": {
        "LeagueStatusEnum": "tournaments.models.League.Status",
        "FixtureStatusEnum": "tournaments.models.Fixture.Status",
        "SeriesStatusEnum": "tournaments.models.Series.Status",
        "ResultStateEnum": "tournaments.models.Result.State",
    },
}

# --- Production hardening (DEBUG off) ------------------------------------------------------
# ALLOW_PLAIN_HTTP=1 is for a local production-like run without TLS (`make prod-local`): no
# HTTPS redirect, no HSTS, cookies sent over plain HTTP. Never behind a public address.
ALLOW_PLAIN_HTTP = env_bool("ALLOW_PLAIN_HTTP")
if not DEBUG:
    # X-Forwarded-Proto says "this came over HTTPS" only from a proxy we trust to set it:
    # with no proxy configured, any client could send it and pass as a secure request
    if REST_FRAMEWORK["NUM_PROXIES"] > 0:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not ALLOW_PLAIN_HTTP)
    SESSION_COOKIE_SECURE = not ALLOW_PLAIN_HTTP
    CSRF_COOKIE_SECURE = not ALLOW_PLAIN_HTTP
    SECURE_HSTS_SECONDS = (
        0 if ALLOW_PLAIN_HTTP else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# --- Content-Security-Policy (django-csp): scripts and styles from this site only ----------
# No page has inline script, inline style or event-handler attributes; keep it that way.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Public pages for a shared cache / CDN (tournaments/web/caching.py, docs/pages.md) ------
# Cache-Control: public, s-maxage=PUBLIC_PAGES_S_MAXAGE on anonymous public pages; their
# rendering is kept in the cache for PUBLIC_PAGE_CACHE_SECONDS (0: rendered every time)
PUBLIC_PAGES_S_MAXAGE = int(os.environ.get("PUBLIC_PAGES_S_MAXAGE", "30"))
PUBLIC_PAGE_CACHE_SECONDS = int(os.environ.get("PUBLIC_PAGE_CACHE_SECONDS", "30"))
# the standings page's anonymous rendering: kept only this long (at most the above), as the
# page is polled for a newer table; a visit in that window costs no database query
STANDINGS_PAGE_CACHE_SECONDS = int(os.environ.get("STANDINGS_PAGE_CACHE_SECONDS", "5"))
# Under a burst of results the recompute of one league starts at most once per this many
# seconds (its holder pauses before running again; issue 31, h-upload5): a table at most
# this much later, one recompute for every few results instead of one for each.
STANDINGS_RECOMPUTE_SPACING = float(os.environ.get("STANDINGS_RECOMPUTE_SPACING", "0.25"))
# Under a burst of results the ratings update's holder keeps its claim this many seconds
# after a run started and checks again before letting go (issue 31, h-rcoal): the results of
# that pause send no ratings task; the ratings at most this much later.
RATINGS_UPDATE_SPACING = float(os.environ.get("RATINGS_UPDATE_SPACING", "0.25"))
# the sites that may frame the embeds (/leagues/<slug>/embed/…): every site by default;
# a space-separated list of sources (https://club.example) narrows it
EMBED_FRAME_ANCESTORS = os.environ.get("EMBED_FRAME_ANCESTORS", "*").split()

# /healthz answers within this many seconds whatever its dependencies do (config/health.py)
HEALTHZ_TIMEOUT = float(os.environ.get("HEALTHZ_TIMEOUT", "1.5"))

# --- Live play: the channel layer of the WebSocket groups (docs/live.md) -------------------
CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL") or os.environ.get("REDIS_URL", "")
if CHANNEL_LAYER_URL:
    # Redis publish/subscribe: a group send is one PUBLISH, delivered at most once. That
    # fits live play (every message carries the whole state; a reconnect resyncs) and costs
    # far less per message than the list-based core layer (docs/live.md, "Benchmark").
    if os.environ.get("CHANNEL_LAYER_BACKEND", "pubsub") == "core":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [CHANNEL_LAYER_URL], "capacity": 1000, "expiry": 30},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [CHANNEL_LAYER_URL]},
            }
        }
else:  # one process only (make run): groups cannot span processes
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
LIVE = {
    "TURN_SECONDS": int(os.environ.get("LIVE_TURN_SECONDS", "60")),
    # the pause before a move the server makes for someone (one or no legal move, computer)
    "AUTO_PAUSE": float(os.environ.get("LIVE_AUTO_PAUSE", "0.8")),
    "COMPUTER_PAUSE": float(os.environ.get("LIVE_COMPUTER_PAUSE", "0.8")),
    # how long a dropped connection keeps its seat before the computer takes over
    "GRACE_SECONDS": float(os.environ.get("LIVE_GRACE_SECONDS", "20")),
    # a roll still unanswered this long after its pause or timer: the sweep steps it
    "SWEEP_AFTER": float(os.environ.get("LIVE_SWEEP_AFTER", "15")),
    # where a room's steps and timers run with a broker: "process" (the timer of the process
    # that applied the move, behind the claim; the sweep repairs a process that died) or
    # "celery" (a task with a countdown, any worker) — docs/live.md, "Where steps run"
    "STEPS": os.environ.get("LIVE_STEPS", "process"),
    # how often the sweep runs (beat with a broker; the ASGI server's own thread without)
    "SWEEP_SECONDS": float(os.environ.get("LIVE_SWEEP_SECONDS", "10")),
    # how often a timer owner (an ASGI server, LIVE_STEPS=process) holds its lease and
    # adopts the rooms of owners that died (docs/live.md, "Issue 33, item 4")
    "OWNER_SECONDS": float(os.environ.get("LIVE_OWNER_SECONDS", "2")),
    # a connection's seats are marked alive this often; a seat not marked for 3 beats and
    # the grace period (its server died) is handed to the computer by the sweep
    "HEARTBEAT_SECONDS": float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "10")),
    # per connection: frame size, JSON nesting, messages per second (with a burst); over
    # a limit the server closes the connection (close codes in docs/live.md)
    "MAX_FRAME_BYTES": int(os.environ.get("LIVE_MAX_FRAME_BYTES", "2048")),
    "MAX_JSON_DEPTH": int(os.environ.get("LIVE_MAX_JSON_DEPTH", "4")),
    "MESSAGES_PER_SECOND": float(os.environ.get("LIVE_MESSAGES_PER_SECOND", "10")),
    "MESSAGE_BURST": int(os.environ.get("LIVE_MESSAGE_BURST", "30")),
    # per client address and server process, all its connections together: messages a
    # second (with a burst); over it a read is dropped and a change refused (0: no limit);
    # a connect costs ADDRESS_CONNECT_COST messages and waits for them at most
    # ADDRESS_CONNECT_WAIT seconds (else it is refused with 4429) — docs/live.md
    "MESSAGES_PER_ADDRESS": float(os.environ.get("LIVE_MESSAGES_PER_ADDRESS", "50")),
    "ADDRESS_BURST": int(os.environ.get("LIVE_ADDRESS_BURST", "150")),
    "ADDRESS_CONNECT_COST": float(os.environ.get("LIVE_ADDRESS_CONNECT_COST", "5")),
    "ADDRESS_CONNECT_WAIT": float(os.environ.get("LIVE_ADDRESS_CONNECT_WAIT", "3")),
    # under Daphne, a socket that sends while its address is over budget is not read until
    # the address's debt is paid, at most this long (and then a few bytes at a time)
    "ADDRESS_MAX_PAUSE": float(os.environ.get("LIVE_ADDRESS_MAX_PAUSE", "10")),
    # a `state` request is answered from the room's latest state in the process while it is
    # younger than this (every broadcast renews it): no database read per request
    "STATE_CACHE_SECONDS": float(os.environ.get("LIVE_STATE_CACHE_SECONDS", "2")),
    # the most events one `events` answer carries (the page asks again for the rest)
    "EVENTS_PER_MESSAGE": int(os.environ.get("LIVE_EVENTS_PER_MESSAGE", "500")),
    # open rooms (waiting or playing, league games aside) one account, one address may host
    "ROOMS_PER_ACCOUNT": int(os.environ.get("LIVE_ROOMS_PER_ACCOUNT", "5")),
    "ROOMS_PER_ADDRESS": int(os.environ.get("LIVE_ROOMS_PER_ADDRESS", "10")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    # secret tokens in paths (/r/<token>/, the calendar feed, invitations, …) never reach a
    # log: config/redaction.py
    # an outage of Redis, the broker or the database: one line, not a traceback
    # (config/expected_errors.py)
    "filters": {
        "redact_tokens": {"()": "config.redaction.RedactTokens"},
        "one_line_outages": {"()": "config.expected_errors.OneLineExpectedErrors"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["redact_tokens", "one_line_outages"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"level": os.environ.get("LOG_LEVEL", "INFO")},
        "django.db.backends": {"level": "WARNING"},
        # runserver's request lines: Django's default handler for them has no filter
        "django.server": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}

# Periodic catch-up: leagues whose standings snapshot is behind their results are
# recomputed (run `celery -A config beat` next to the workers in production).
CELERY_BEAT_SCHEDULE = {
    "standings-catch-up": {
        "task": "tournaments.standings_catch_up",
        "schedule": float(os.environ.get("STANDINGS_CATCH_UP_SECONDS", "60")),
    },
    # games due within 48 hours and overdue games: each reminder is sent once
    "notify-deadlines": {
        "task": "notifications.notify_deadlines",
        "schedule": float(os.environ.get("NOTIFY_DEADLINES_SECONDS", "900")),
    },
    # the e-mails of accounts that chose one daily digest
    "send-digests": {
        "task": "notifications.send_digests",
        "schedule": float(os.environ.get("DIGEST_SECONDS", "86400")),
    },
    # the ratings update applies whatever is pending (a lost message, a broker outage)
    # counted logs without an analysis, and analyses whose task was lost
    "analyses-catch-up": {
        "task": "tournaments.analyses_catch_up",
        "schedule": float(os.environ.get("ANALYSIS_CATCH_UP_SECONDS", "600")),
    },
    "ratings-catch-up": {
        "task": "tournaments.update_ratings",
        "schedule": float(os.environ.get("RATINGS_CATCH_UP_SECONDS", "300")),
    },
    # the per-session revision counters of ended sessions folded into one row (their sum,
    # the revision, unchanged): the tables stay as small as the live sessions
    "revisions-fold": {
        "task": "tournaments.revisions_fold",
        "schedule": float(os.environ.get("REVISIONS_FOLD_SECONDS", "3600")),
    },
    # live rooms whose step timer died with a process (or whose message was lost) go on
    "live-sweep": {
        "task": "live.rooms_sweep",
        "schedule": LIVE["SWEEP_SECONDS"],
    },
}

# No beat in the embedded default: EMBEDDED_BEAT=1 (make run) runs CELERY_BEAT_SCHEDULE in a
# thread of the serving process (config/embedded_beat.py); ignored when a broker is set.
EMBEDDED_BEAT = os.environ.get("EMBEDDED_BEAT", "").lower() in ("1", "true", "yes", "on")

# Redis: a message taken by a worker that died unacknowledged is delivered again after this
# many seconds (the catch-up task usually repairs the standings long before).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600")),
    # Redis: connecting and every socket read or write give up after CELERY_IO_TIMEOUT, and
    # a publish is retried at most once (kombu's own reconnect loop would otherwise spin).
    "socket_connect_timeout": CELERY_IO_TIMEOUT,
    "socket_timeout": CELERY_IO_TIMEOUT,
    "max_retries": 1,
}
