"""The README's production sequence works: ``config/prod_local.sh`` (``make prod-local``)
runs migrate, collectstatic, gunicorn, a worker and beat with DEBUG off against the test
database and the Redis test broker, on plain HTTP; a visitor signs up, is logged in (the
cookies travel over plain HTTP with ALLOW_PLAIN_HTTP) and every page answers with its
Content-Security-Policy; Ctrl-C (SIGTERM) stops all processes."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.celery_worker import database_url_of_test_db

REPO_ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Browser:
    """urllib with a cookie jar: like a browser, it sends a ``Secure`` cookie over HTTPS
    only, so a login over plain HTTP works only if the cookies are not marked Secure."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, path: str, data: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        if data is not None:
            request.add_header("Referer", self.base + path)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def cookie(self, name: str):
        return next((c for c in self.jar if c.name == name), None)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_production_sequence_serves_the_site_on_plain_http(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        DATABASE_URL=database_url_of_test_db(),
        CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL,
        CACHE_URL=settings.TEST_CELERY_BROKER_URL,
        STATIC_ROOT=str(tmp_path / "static"),
        SECRET_KEY="prod-local-test-" + "s3cr3t" * 8,
        PORT=str(port),
        WEB_WORKERS="1",
        LOG_LEVEL="WARNING",
    )
    env.pop("EMAIL_BACKEND", None)  # the script chooses console, explicitly
    log = (tmp_path / "prod-local.log").open("wb")
    process = subprocess.Popen(
        ["bash", "config/prod_local.sh"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    browser = Browser(f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 180
        while True:
            assert process.poll() is None, (tmp_path / "prod-local.log").read_text()[-3000:]
            try:
                status, _, body = browser.request("/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the site did not come up within 180 s"
            time.sleep(0.5)
        assert json.loads(body) == {
            "status": "ok",
            "database": {"ok": True},
            "broker": {"ok": True},
            "cache": {"ok": True},
            "static": {"ok": True},
        }

        status, headers, html = browser.request("/")
        assert status == 200
        assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
        stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', html)
        assert stylesheet, "the stylesheet is served under its hashed name"
        assert browser.request(stylesheet.group(1))[0] == 200

        status, _, html = browser.request("/accounts/signup/")
        assert status == 200
        assert not browser.cookie("csrftoken").secure
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        status, headers, _ = browser.request(
            "/accounts/signup/",
            {
                "csrfmiddlewaretoken": token,
                "username": "visitor",
                "email": "visitor@example.org",
                "password1": "a-long-pass-phrase-7",
                "password2": "a-long-pass-phrase-7",
                "player_name": "Visitor",
            },
        )
        assert status == 302, "sign-up over plain HTTP"
        assert browser.cookie("sessionid") is not None
        assert not browser.cookie("sessionid").secure
        assert browser.request("/accounts/token/")[0] == 200  # logged in
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)  # as Ctrl-C: the script stops its children
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                raise
        log.close()
    time.sleep(1)
    leftover = subprocess.run(
        ["pgrep", "-g", str(process.pid)], capture_output=True, text=True
    ).stdout.split()
    if leftover:
        os.killpg(process.pid, signal.SIGKILL)
    assert leftover == [], "web, worker or beat still running after SIGTERM"
