"""No log the project configures records a secret token from a path (issue 25): the private
result link /r/<token>/, the calendar feed, invitations, e-mail confirmations, one-click
unsubscribes and password resets are written with the token cut out — by Django's logging,
gunicorn's access log (its logger class) and nginx's ``redacted`` log format."""

from __future__ import annotations

import contextlib
import io
import logging
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from config.redaction import GunicornLogger, RedactTokens, redact

REPO_ROOT = Path(__file__).resolve().parents[2]
SECRET = "Zq8xSECRETtoken42"


def secret_urls() -> list[str]:
    """Every URL that carries a secret token, made by its URL name."""
    return [
        reverse("tournaments:result-link", args=[SECRET]),
        reverse("tournaments:link-upload", args=[SECRET, 7]),
        reverse("tournaments:my-calendar", args=[SECRET]),
        reverse("tournaments:confirm-email", args=[SECRET]),
        reverse("tournaments:invitation", args=[SECRET]),
        reverse("notifications_unsubscribe", args=[SECRET]),
        reverse("password_reset_confirm", args=["MQ", SECRET]),
    ]


def test_every_secret_path_is_redacted():
    for url in secret_urls():
        cleaned = redact(f"GET {url}?lang=de HTTP/1.1")
        assert SECRET not in cleaned, url
        assert "…" in cleaned and cleaned.endswith("?lang=de HTTP/1.1")
    assert redact("/r/abc/games/3/upload/") == "/r/…/games/3/upload/"
    # other paths stay as they are
    for path in ("/leagues/nine/standings/", "/games/3/", "/players/anna/", "/me/"):
        assert redact(path) == path


def _console_handler() -> logging.Handler:
    return next(
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RedactTokens) for f in h.filters)
    )


def test_django_request_log_has_no_token(client, settings):
    """A 404 on a bad result link is logged by django.request ("Not Found: …") through
    the configured console handler: the line names the path without its token."""
    handler = _console_handler()
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        for url in secret_urls()[:3]:
            client.get(url)
    finally:
        handler.setStream(old)
    written = stream.getvalue()
    assert "Not Found: /r/…/" in written
    assert SECRET not in written


def test_runserver_log_goes_through_the_filter():
    logger = logging.getLogger("django.server")
    assert any(isinstance(f, RedactTokens) for h in logger.handlers for f in h.filters), (
        "django.server's request lines must pass the redacting filter"
    )


class _Response:
    status = "200 OK"
    sent = 12
    headers = [("Location", f"/r/{SECRET}/#game-3")]


def test_gunicorn_access_log_has_no_token():
    from gunicorn.config import Config

    cfg = Config()
    cfg.set("accesslog", "-")
    log = GunicornLogger(cfg)
    url = f"/r/{SECRET}/games/3/upload/"
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": url,
        "PATH_INFO": url,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": f"http://example.org/r/{SECRET}/",
    }
    request = type("Req", (), {"headers": [("REFERER", environ["HTTP_REFERER"])]})()
    atoms = log.atoms(_Response(), request, environ, timedelta(milliseconds=3))
    line = cfg.access_log_format % atoms
    assert "/r/…/games/3/upload/" in line
    assert SECRET not in " ".join(str(v) for v in atoms.values())


def _gunicorn_settings() -> dict:
    """config/gunicorn.conf.py as gunicorn reads it (its module namespace)."""
    namespace: dict = {"__file__": str(REPO_ROOT / "config" / "gunicorn.conf.py")}
    exec((REPO_ROOT / "config" / "gunicorn.conf.py").read_text(), namespace)
    return namespace


def test_gunicorn_uses_the_redacting_logger():
    """gunicorn's settings file (config/gunicorn.conf.py, ``-c`` in the README and in the
    production-like run) names the logger class."""
    assert _gunicorn_settings()["logger_class"] == "config.redaction.GunicornLogger"
    assert "-c config/gunicorn.conf.py" in (REPO_ROOT / "config" / "prod_local.sh").read_text()


def test_gunicorn_forks_its_workers_from_the_loaded_application(monkeypatch):
    """Workers are replaced after max-requests and forked from the application loaded once
    in the master (``preload_app``), which closes its database connections and freezes its
    objects out of the garbage collector before each fork; a leaving worker closes its
    connections and ends without the interpreter's teardown (docs/performance.md,
    "max-requests": a trivial view 500-700 requests a second with max-requests and no
    preload, 3,000 with all three)."""
    import gc

    from django.db import connections

    settings = _gunicorn_settings()
    assert settings["preload_app"] is True
    assert (settings["max_requests"], settings["max_requests_jitter"]) == (1000, 100)
    done = []
    monkeypatch.setattr(connections, "close_all", lambda: done.append("closed"))
    monkeypatch.setattr(gc, "freeze", lambda: done.append("frozen"))
    settings["pre_fork"](None, None)
    assert done == ["closed", "frozen"]

    class Exited(Exception):
        pass

    def exit_now(code):
        done.append(f"exit {code}")
        raise Exited

    monkeypatch.setattr(settings["os"], "_exit", exit_now)
    monkeypatch.setattr(settings["logging"], "shutdown", lambda: done.append("logs"))

    def leave(code):
        """gunicorn's way out of a worker: ``sys.exit(code)``, then ``worker_exit``."""
        try:
            sys.exit(code)
        finally:
            settings["worker_exit"](None, None)

    with pytest.raises(Exited):
        leave(0)
    assert done[2:] == ["closed", "logs", "exit 0"]
    del done[2:]
    with pytest.raises(SystemExit) as failed:  # a worker that failed to boot: its code kept
        leave(3)
    assert failed.value.code == 3 and done[2:] == []


def _nginx_map() -> list[tuple[str, str]]:
    text = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    return re.findall(r'^\s*"~(\^[^"]+)" "([^"]+)";$', text, flags=re.M)


def test_nginx_map_matches_the_python_patterns():
    """The template's map repeats config/redaction.py's patterns: the same URLs come out
    the same (nginx's regular expressions read here as Python's; "..." for "…", which
    nginx would write as escaped bytes)."""
    rules = [(re.compile(p.replace("(?<", "(?P<")), r) for p, r in _nginx_map()]
    assert len(rules) == 6
    for url in secret_urls():
        for pattern, replacement in rules:
            if match := pattern.match(url):
                # nginx escapes bytes outside ASCII in its log: "..." there for "…"
                written = replacement.replace("$rest", match["rest"]).replace("...", "…")
                assert written == redact(url)
                break
        else:
            pytest.fail(f"the nginx map leaves {url} as it is")
    text = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    # the only access log lines: off, or the redacted format
    for line in re.findall(r"^\s*access_log\s+([^;]+);", text, flags=re.M):
        assert line == "off" or line.endswith(" redacted"), line


def _free_port() -> int:
    from tests.processes import free_port

    return free_port()


@pytest.mark.skipif(
    not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists(), reason="no nginx"
)
def test_nginx_redacted_log_format(tmp_path):
    """nginx itself, with the template and its access log switched on in the ``redacted``
    format: a request to a result link is written without its token."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    port, dead = _free_port(), _free_port()
    conf = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    for field, value in {
        "@PREFIX@": str(tmp_path),
        "@LISTEN@": f"127.0.0.1:{port}",
        "@APP@": f"127.0.0.1:{dead}",
        "@ASGI@": f"127.0.0.1:{dead}",
    }.items():
        conf = conf.replace(field, value)
    conf = conf.replace("access_log off;", f"access_log {tmp_path}/access.log redacted;")
    (tmp_path / "nginx.conf").write_text(conf)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    group = subprocess.run(["id", "-gn"], capture_output=True, text=True).stdout.strip()
    proc = subprocess.Popen(
        [
            nginx,
            "-p",
            str(tmp_path),
            "-c",
            str(tmp_path / "nginx.conf"),
            "-g",
            f"daemon off; user {user} {group};",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        for url in (f"/r/{SECRET}/?lang=de", f"/me/calendar/{SECRET}.ics"):
            # 502: nothing behind it; the log line is written all the same
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{url}", timeout=5)
        time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(10)
    written = (tmp_path / "access.log").read_text()
    assert '"GET /r/.../?lang=de HTTP/1.1" 502' in written
    assert "/me/calendar/....ics" in written
    assert SECRET not in written


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
needs_nginx = pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx")


@contextlib.contextmanager
def _nginx(tmp_path):
    """nginx with the template as it is (its error log in a file, at the template's level),
    nothing behind it: yields its port."""
    port, dead = _free_port(), _free_port()
    conf = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    for field, value in {
        "@PREFIX@": str(tmp_path),
        "@LISTEN@": f"127.0.0.1:{port}",
        "@APP@": f"127.0.0.1:{dead}",
        "@ASGI@": f"127.0.0.1:{dead}",
    }.items():
        conf = conf.replace(field, value)
    conf, n = re.subn(r"^error_log stderr ", f"error_log {tmp_path}/error.log ", conf, flags=re.M)
    assert n == 1, "the template's error_log line moved"
    (tmp_path / "nginx.conf").write_text(conf)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    group = subprocess.run(["id", "-gn"], capture_output=True, text=True).stdout.strip()
    proc = subprocess.Popen(
        [
            NGINX,
            *("-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")),
            *("-g", f"daemon off; user {user} {group};"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def _status(port: int, url: str, *, method: str = "GET", body: bytes | None = None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{url}", data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers
    except (ConnectionError, urllib.error.URLError):  # nginx may close before the body ends
        return None, {}


@needs_nginx
def test_nginx_error_log_keeps_the_tokens_out(tmp_path):
    """Issue 32: nginx wrote the live /r/<token>/ path into its error log when it refused an
    oversized body (413), and for every 502; its error log cannot be redacted, so it logs
    only from crit up."""
    with _nginx(tmp_path) as port:
        status, _headers = _status(
            port, f"/r/{SECRET}/games/1/upload/", method="POST", body=b"x" * (9 * 1024 * 1024)
        )
        assert status in (413, None)  # refused (nginx may cut the connection first)
        assert _status(port, f"/r/{SECRET}/")[0] == 502  # nothing behind it
        assert _status(port, f"/me/calendar/{SECRET}.ics")[0] == 502
        time.sleep(0.2)
    written = (tmp_path / "error.log").read_text() if (tmp_path / "error.log").exists() else ""
    assert SECRET not in written


@needs_nginx
def test_nginx_answers_trace_with_405_and_allow(tmp_path):
    with _nginx(tmp_path) as port:
        status, headers = _status(port, "/", method="TRACE")
        assert status == 405
        allowed = {m.strip() for m in headers.get("Allow", "").split(",")}
        assert {"GET", "HEAD", "POST", "OPTIONS"} <= allowed and "TRACE" not in allowed
        # an ordinary request still goes to the application (502: nothing behind it)
        assert _status(port, "/")[0] == 502
