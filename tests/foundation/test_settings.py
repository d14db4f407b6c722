"""The environment decides the database, the broker and whether the process may start."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({"engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"),
                  "eager": settings.CELERY_TASK_ALWAYS_EAGER,
                  "broker": settings.CELERY_BROKER_URL,
                  "backend": settings.CELERY_RESULT_BACKEND}))
"""


def probe(**env_overrides: str) -> subprocess.CompletedProcess:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "CELERY_RESULT_BACKEND",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
        }
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_under(**env_overrides: str) -> dict:
    result = probe(**env_overrides)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_database_url_the_embedded_sqlite_file_is_used():
    s = settings_under(DEBUG="1")
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(REPO_ROOT / "db.sqlite3")


def test_database_url_selects_postgresql():
    s = settings_under(DEBUG="1", DATABASE_URL="postgres://postgres@127.0.0.1:5432/league")
    assert s["engine"] == "django.db.backends.postgresql"
    assert (s["name"], s["host"]) == ("league", "127.0.0.1")


def test_without_broker_tasks_run_in_process():
    s = settings_under(DEBUG="1")
    assert s["eager"] is True
    assert s["backend"] is None


def test_broker_url_selects_redis_and_its_result_backend():
    s = settings_under(DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert s["eager"] is False
    assert s["broker"] == s["backend"] == "redis://127.0.0.1:6379/3"


def test_rabbitmq_broker_uses_rpc_results():
    s = settings_under(DEBUG="1", CELERY_BROKER_URL="amqp://guest:guest@127.0.0.1:5672//")
    assert (s["eager"], s["backend"]) == (False, "rpc://")


def test_debug_off_refuses_to_start_without_secret_key_and_hosts():
    result = probe()
    assert result.returncode != 0
    assert "SECRET_KEY and ALLOWED_HOSTS must be set" in result.stderr


def test_debug_off_starts_with_secret_key_and_hosts():
    s = settings_under(SECRET_KEY="x" * 50, ALLOWED_HOSTS="league.example.org")
    assert s["engine"] == "django.db.backends.sqlite3"


def test_check_deploy_passes_with_production_settings():
    # DJANGO_ALLOW_ASYNC_UNSAFE is set by the browser tests' runner, never in production
    skip = {"DEBUG", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {key: value for key, value in os.environ.items() if key not in skip}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        SECRET_KEY="a-long-random-production-secret-" + "k3y9" * 10,
        ALLOWED_HOSTS="league.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
