"""The environment decides the database, the broker, the e-mail backend, whether the
process may start, and how it behaves when the broker is down."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
from config.celery_app import app
conf = app.conf
print(json.dumps({"engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST"),
                  "options": db.get("OPTIONS", {}),
                  "eager": settings.CELERY_TASK_ALWAYS_EAGER,
                  "broker": settings.CELERY_BROKER_URL,
                  "backend": settings.CELERY_RESULT_BACKEND,
                  "email": settings.EMAIL_BACKEND,
                  "secure": {name: getattr(settings, name, None) for name in (
                      "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
                      "SECURE_HSTS_SECONDS")},
                  "static_root": str(settings.STATIC_ROOT),
                  "beat": {name: {"task": entry["task"], "schedule": entry["schedule"]}
                           for name, entry in conf.beat_schedule.items()},
                  "broker_connection_timeout": conf.broker_connection_timeout,
                  "broker_transport_options": conf.broker_transport_options,
                  "publish_retry_policy": conf.task_publish_retry_policy,
                  "redis_socket_timeout": conf.redis_socket_timeout,
                  "redis_socket_connect_timeout": conf.redis_socket_connect_timeout,
                  "result_backend_transport_options": conf.result_backend_transport_options,
                  "acks_late": conf.task_acks_late}))
"""

#: every variable the settings read; probe() starts from an environment without them
SETTINGS_FILE = REPO_ROOT / "config" / "settings" / "base.py"
READ_VARIABLES = sorted(
    {"DATABASE_URL"}  # read by dj-database-url
    | set(
        re.findall(
            r"""(?:os\.environ\.get|os\.environ\[|env_bool|env_list|env_rate)\(?\s*["']([A-Z_]+)["']""",
            SETTINGS_FILE.read_text(),
        )
    )
)


def probe(**env_overrides: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in READ_VARIABLES}
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


PRODUCTION = {
    "SECRET_KEY": "x" * 50,
    "ALLOWED_HOSTS": "league.example.org",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def test_debug_off_refuses_to_start_without_a_shared_cache():
    # a per-process cache gives every web process its own throttle counters
    without_cache = {k: v for k, v in PRODUCTION.items() if k != "CACHE_URL"}
    result = probe(**without_cache, EMAIL_BACKEND="smtp")
    assert result.returncode != 0
    assert "DEBUG is off, so CACHE_URL must be set" in result.stderr
    assert probe(**without_cache, EMAIL_BACKEND="smtp", CACHE_URL="memcached://x").returncode
    assert settings_under(**without_cache, EMAIL_BACKEND="smtp", CACHE_URL="locmem://")


def test_debug_off_starts_with_secret_key_hosts_and_an_email_backend():
    s = settings_under(**PRODUCTION, EMAIL_BACKEND="smtp")
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["email"] == "django.core.mail.backends.smtp.EmailBackend"


def test_debug_off_refuses_to_start_without_an_email_backend():
    # the console backend would write password-reset links into the server's log
    result = probe(**PRODUCTION)
    assert result.returncode != 0
    assert "DEBUG is off, so EMAIL_BACKEND must be set in the environment" in result.stderr


def test_the_console_email_backend_is_an_explicit_choice_and_check_deploy_warns():
    assert settings_under(**PRODUCTION, EMAIL_BACKEND="console")["email"] == (
        "django.core.mail.backends.console.EmailBackend"
    )
    result = check_deploy(EMAIL_BACKEND="console")
    assert result.returncode != 0
    assert "maedn.W001" in result.stderr and "password-reset links" in result.stderr


def test_debug_mode_prints_mail_to_the_console_without_configuration():
    assert settings_under(DEBUG="1")["email"] == "django.core.mail.backends.console.EmailBackend"


def test_a_dotted_email_backend_path_is_taken_as_it_is():
    path = "django.core.mail.backends.filebased.EmailBackend"
    assert settings_under(**PRODUCTION, EMAIL_BACKEND=path)["email"] == path


def test_production_is_secure_by_default():
    s = settings_under(**PRODUCTION, EMAIL_BACKEND="smtp")
    assert s["secure"] == {
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
    }


def test_allow_plain_http_switches_off_redirect_hsts_and_secure_cookies():
    s = settings_under(**PRODUCTION, EMAIL_BACKEND="smtp", ALLOW_PLAIN_HTTP="1")
    assert s["secure"] == {
        "SECURE_SSL_REDIRECT": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
    }
    result = check_deploy(EMAIL_BACKEND="smtp", ALLOW_PLAIN_HTTP="1")
    assert "maedn.W002" in result.stderr


def test_static_root_comes_from_the_environment(tmp_path):
    s = settings_under(DEBUG="1", STATIC_ROOT=str(tmp_path))
    assert s["static_root"] == str(tmp_path)
    assert settings_under(DEBUG="1")["static_root"] == str(REPO_ROOT / "staticfiles")


def test_postgresql_connections_give_up_after_a_connect_timeout():
    url = "postgres://postgres@127.0.0.1:5432/league"
    assert settings_under(DEBUG="1", DATABASE_URL=url)["options"]["connect_timeout"] == 5
    s = settings_under(DEBUG="1", DATABASE_URL=url, DATABASE_CONNECT_TIMEOUT="2")
    assert s["options"]["connect_timeout"] == 2


def test_publishing_timeouts_are_bounded():
    """Every broker and result-store operation of a web process gives up after
    CELERY_IO_TIMEOUT seconds and is retried at most once (the fault tests of
    test_broker_outage.py show the effect)."""
    s = settings_under(DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert s["broker_connection_timeout"] == 2
    options = s["broker_transport_options"]
    assert (options["socket_timeout"], options["socket_connect_timeout"]) == (2, 2)
    assert options["max_retries"] == 1
    assert s["publish_retry_policy"]["max_retries"] == 1
    assert (s["redis_socket_timeout"], s["redis_socket_connect_timeout"]) == (2, 2)
    assert s["result_backend_transport_options"]["retry_policy"]["max_retries"] == 0
    tighter = settings_under(
        DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/3", CELERY_IO_TIMEOUT="0.5"
    )
    assert tighter["broker_transport_options"]["socket_timeout"] == 0.5
    assert tighter["redis_socket_timeout"] == 0.5


def test_beat_runs_the_standings_catch_up_at_the_documented_interval():
    s = settings_under(DEBUG="1")
    assert s["beat"]["standings-catch-up"] == {
        "task": "tournaments.standings_catch_up",
        "schedule": 60.0,
    }
    assert {entry["task"] for entry in s["beat"].values()} == {
        "tournaments.standings_catch_up",
        "tournaments.update_ratings",
        "tournaments.analyses_catch_up",
        "tournaments.revisions_fold",
        "notifications.notify_deadlines",
        "notifications.send_digests",
        "live.rooms_sweep",
    }
    assert (
        settings_under(DEBUG="1", STANDINGS_CATCH_UP_SECONDS="15")["beat"]["standings-catch-up"][
            "schedule"
        ]
        == 15.0
    )
    docs = (REPO_ROOT / "docs" / "configuration.md").read_text()
    assert re.search(r"\| `STANDINGS_CATCH_UP_SECONDS` \|[^|]*\| `60` \|", docs)


def test_redelivery_of_a_killed_task_by_design():
    """acks_late: a task whose worker dies is delivered again after the visibility timeout
    (600 s); it must be longer than any countdown a task waits for (the recompute's retry
    backoff, at most 60 s), or Redis would hand a waiting task to a second worker."""
    from tournaments.tasks import recompute_standings

    s = settings_under(DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/3")
    assert s["acks_late"] is True
    visibility = s["broker_transport_options"]["visibility_timeout"]
    assert visibility == 600
    assert visibility > recompute_standings.retry_backoff_max
    docs = (REPO_ROOT / "docs" / "configuration.md").read_text()
    assert re.search(r"\| `CELERY_VISIBILITY_TIMEOUT` \|[^|]*\| `600` \|", docs)


@pytest.mark.parametrize("variable", READ_VARIABLES)
def test_every_variable_the_settings_read_is_documented(variable):
    assert f"`{variable}`" in (REPO_ROOT / "docs" / "configuration.md").read_text()
    assert f"`{variable}`" in (REPO_ROOT / "README.md").read_text()


def check_deploy(**env_overrides: str) -> subprocess.CompletedProcess:
    # DJANGO_ALLOW_ASYNC_UNSAFE is set by the browser tests' runner, never in production
    skip = {"DJANGO_ALLOW_ASYNC_UNSAFE", *READ_VARIABLES}
    env = {key: value for key, value in os.environ.items() if key not in skip}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        SECRET_KEY="a-long-random-production-secret-" + "k3y9" * 10,
        ALLOWED_HOSTS="league.example.org",
        CACHE_URL="redis://127.0.0.1:6379/1",
        DEFAULT_FROM_EMAIL="MÄDN League <noreply@league.example.org>",
    )
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_passes_with_production_settings():
    result = check_deploy(EMAIL_BACKEND="smtp")
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_warns_while_mail_comes_from_webmaster_at_localhost():
    # issue 34: every mail came from Django's default sender, which no one can answer
    result = check_deploy(EMAIL_BACKEND="smtp", DEFAULT_FROM_EMAIL="webmaster@localhost")
    assert result.returncode != 0
    assert "maedn.W003" in result.stderr and "DEFAULT_FROM_EMAIL" in result.stderr
