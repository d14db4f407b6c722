"""Test-suite settings: PostgreSQL on 127.0.0.1 (override with DATABASE_URL), a fixed
non-secret key, fast hashing and in-process (eager) Celery.

Tests that need the real broker and a real worker use the ``celery_worker`` fixture
(tests/conftest.py): it starts ``celery worker`` in a subprocess with
``TEST_CELERY_WORKER=1`` (so that process uses ``TEST_CELERY_BROKER_URL``, Redis by default,
and the test database) and switches this process's Celery app to the same broker.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-used-anywhere-else")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("EMAIL_BACKEND", "locmem")
os.environ.setdefault("CACHE_URL", "locmem://")
TEST_CELERY_BROKER_URL = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ["CELERY_BROKER_URL"] = (
    TEST_CELERY_BROKER_URL if os.environ.get("TEST_CELERY_WORKER") == "1" else ""
)

# live play: the real Redis channel layer (db 4 unless told), short pauses
os.environ.setdefault(
    "CHANNEL_LAYER_URL", os.environ.get("TEST_CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/4")
)
os.environ.setdefault("LIVE_AUTO_PAUSE", "0.05")
os.environ.setdefault("LIVE_COMPUTER_PAUSE", "0.02")
os.environ.setdefault("LIVE_GRACE_SECONDS", "1")
os.environ.setdefault("LIVE_HEARTBEAT_SECONDS", "0.5")
# the servers a test starts sweep every second, rooms late by 2 s (docs/live.md)
os.environ.setdefault("LIVE_SWEEP_SECONDS", "1")
os.environ.setdefault("LIVE_SWEEP_AFTER", "2")
os.environ.setdefault("LIVE_OWNER_SECONDS", "0.5")
# move analyses: off unless a test turns them on
os.environ.setdefault("ANALYSIS_ENABLED", "0")
# anonymous public pages are kept this long in the site's cache (tournaments/web/caching.py):
# off here, so a test sees its own change at once; tests/pages/test_public_cache.py turns it on
os.environ.setdefault("PUBLIC_PAGE_CACHE_SECONDS", "0")

from .base import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Parallel test processes share the Redis of the channel layer, and their rooms have the same
# numbers (each has its own test database): one key prefix per test process keeps room 1 of
# one process from hearing room 1 of another. The Daphne servers a test starts inherit
# PYTEST_XDIST_WORKER, so they use the prefix of their test process.
if "CONFIG" in CHANNEL_LAYERS["default"]:  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = (  # noqa: F405
        "test-" + os.environ.get("PYTEST_XDIST_WORKER", "main")
    )
SECURE_SSL_REDIRECT = False
# no stored archives: test databases reuse their ids (a flush resets the sequences); the
# archive tests give each test a directory of its own
ARCHIVE_DIR = ""
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
