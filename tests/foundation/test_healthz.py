"""/healthz against the real PostgreSQL and brokers, and against dependencies that refuse
connections or never answer: it answers within its deadline, says only ok or a short error
per dependency (never a host or a port), and notices static files that were not collected.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import override_settings

from tests.foundation.faults import SilentServer, celery_broker, refused_port

REPO_ROOT = Path(__file__).resolve().parents[2]
HEALTHZ_BOUND = 4.0  # seconds: the deadline is 1.5 s; this checks it exists, not speed
MANIFEST_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.fixture
def silent():
    server = SilentServer()
    yield server
    server.close()


def timed_healthz(client):
    started = time.monotonic()
    response = client.get("/healthz")
    return response, time.monotonic() - started


@pytest.mark.django_db
def test_healthz_in_process_mode_reports_every_dependency_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": {"ok": True},
        "broker": {"ok": True},
        "cache": {"ok": True},
        "static": {"ok": True},
    }
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_healthz_reaches_the_real_redis_broker(client, settings):
    with celery_broker(settings.TEST_CELERY_BROKER_URL):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == {"ok": True}


@pytest.mark.django_db
def test_healthz_reaches_the_real_rabbitmq_broker(client):
    with celery_broker("amqp://guest:guest@127.0.0.1:5672//"):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == {"ok": True}


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_refuses_and_shows_no_address(client):
    port = refused_port()
    with celery_broker(f"redis://127.0.0.1:{port}/0"):
        response, seconds = timed_healthz(client)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"] == {"ok": False, "error": "unreachable"}
    assert body["database"]["ok"] is True
    assert str(port) not in response.content.decode() and "127.0.0.1" not in str(body)
    assert seconds < HEALTHZ_BOUND


@pytest.mark.django_db
@pytest.mark.parametrize("scheme,path", [("redis", "/0"), ("amqp", "//")])
def test_healthz_answers_in_time_when_the_broker_never_replies(client, silent, scheme, path):
    with celery_broker(silent.url(scheme, path)):
        response, seconds = timed_healthz(client)
        again, seconds_again = timed_healthz(client)  # while the first probe still waits
    assert seconds < HEALTHZ_BOUND and seconds_again < HEALTHZ_BOUND
    assert response.status_code == again.status_code == 503
    assert response.json()["broker"] == {"ok": False, "error": "timed out"}
    assert response.json()["database"] == {"ok": True}


def _database_at(monkeypatch, port: int) -> None:
    """Probes open their own connection: point new connections at ``port``."""
    moved = {**connections.settings["default"], "HOST": "127.0.0.1", "PORT": str(port)}
    monkeypatch.setitem(connections.settings, "default", moved)


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_refuses_and_shows_no_address(client, monkeypatch):
    port = refused_port()
    _database_at(monkeypatch, port)
    response, seconds = timed_healthz(client)
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "unreachable"}
    text = response.content.decode()
    assert str(port) not in text and "127.0.0.1" not in text and "5432" not in text
    assert seconds < HEALTHZ_BOUND


@pytest.mark.django_db
def test_healthz_answers_in_time_when_the_database_never_replies(client, monkeypatch, silent):
    _database_at(monkeypatch, silent.port)
    response, seconds = timed_healthz(client)
    assert seconds < HEALTHZ_BOUND
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "timed out"}


def test_healthz_is_503_when_the_database_is_unreachable(client, monkeypatch):
    from config import health

    def broken():
        raise OSError("connection to server at 10.1.2.3, port 5432 failed")

    monkeypatch.setattr(health, "check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "error": "unreachable"}
    assert "10.1.2.3" not in response.content.decode()


@pytest.mark.django_db
def test_healthz_notices_static_files_not_collected_then_collected(client, tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": MANIFEST_STORAGE},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path / "static"):
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["static"] == {
            "ok": False,
            "error": "static files manifest missing: run `manage.py collectstatic`",
        }
        assert response.json()["database"] == {"ok": True}
        call_command("collectstatic", "--noinput", verbosity=0)
        response = client.get("/healthz")
        assert response.status_code == 200, response.json()
        assert response.json()["static"] == {"ok": True}
        (tmp_path / "static" / "css" / "site.css").unlink(missing_ok=False)
        for stale in (tmp_path / "static" / "css").glob("site.*.css"):
            stale.unlink()
        response = client.get("/healthz")
        assert response.status_code == 503
        assert "css/site.css is missing" in response.json()["static"]["error"]


@pytest.mark.django_db
def test_healthz_says_restart_when_static_files_were_collected_after_start(client, tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": MANIFEST_STORAGE},
    }
    root = tmp_path / "static"
    with override_settings(STORAGES=storages, STATIC_ROOT=root):
        assert client.get("/healthz").status_code == 503  # storage loaded: no manifest
        env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.base",
            SECRET_KEY="x" * 50,
            ALLOWED_HOSTS="localhost",
            EMAIL_BACKEND="console",
            CACHE_URL="locmem://",
            STATIC_ROOT=str(root),
        )
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=REPO_ROOT,
            env=env,
            check=True,
            timeout=300,
        )
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["static"]["error"] == (
        "static files were collected after this process started: restart it"
    )


@pytest.mark.django_db
def test_healthz_walks_the_static_sources_once_per_process(client, tmp_path, monkeypatch):
    """The project's static files change only with a deploy: the second /healthz checks the
    collected copies again but does not walk ``static/`` again."""
    from config import health

    walked = []
    rglob = Path.rglob

    def counting(self, pattern, *args, **kwargs):
        walked.append(self)
        return rglob(self, pattern, *args, **kwargs)

    monkeypatch.setattr(Path, "rglob", counting)
    health._static_files_under.cache_clear()
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": MANIFEST_STORAGE},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path / "static"):
        call_command("collectstatic", "--noinput", verbosity=0)
        walked.clear()
        assert client.get("/healthz").json()["static"] == {"ok": True}
        assert len(walked) == 1
        assert client.get("/healthz").json()["static"] == {"ok": True}
        assert len(walked) == 1
