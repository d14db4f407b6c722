"""The README's production sequence works: ``config/prod_local.sh`` (``make prod-local``)
runs migrate, collectstatic, nginx in front of gunicorn and Daphne, a worker and beat with
DEBUG off against the test database and the Redis test broker, on plain HTTP; a visitor
signs up, is logged in (the cookies travel over plain HTTP with ALLOW_PLAIN_HTTP), every
page answers with its Content-Security-Policy, a live room's WebSocket works through the
proxy; slow clients holding connections do not keep an ordinary visitor waiting (issue 22
point 12); Ctrl-C (SIGTERM) stops all processes."""

from __future__ import annotations

import contextlib
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
from websockets.sync.client import connect as websocket_connect

from tests.celery_worker import database_url_of_test_db

REPO_ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]
#: seconds an ordinary request may take while slow clients hold connections: generous; it
#: proves the workers are free (behind no proxy it waited for gunicorn's 30 s timeout)
VISITOR_BOUND = 10.0


def free_port() -> int:
    from tests.processes import free_port as free

    return free()


def free_pair() -> int:
    """A free port whose next port is free too (the two Daphne servers)."""
    while True:
        port = free_port()
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port


class Browser:
    """urllib with a cookie jar: like a browser, it sends a ``Secure`` cookie over HTTPS
    only, so a login over plain HTTP works only if the cookies are not marked Secure."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, path: str, data: dict | None = None, timeout: float = 10):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        if data is not None:
            request.add_header("Referer", self.base + path)
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def cookie(self, name: str):
        return next((c for c in self.jar if c.name == name), None)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Site:
    """``config/prod_local.sh`` running on free ports, its output in ``log``."""

    def __init__(self, tmp_path: Path) -> None:
        self.port, app_port, asgi_port = free_port(), free_port(), free_pair()
        self.asgi_ports = [asgi_port, asgi_port + 1]
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_SETTINGS_MODULE"}}
        env.update(
            DATABASE_URL=database_url_of_test_db(),
            CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL,
            CACHE_URL=settings.TEST_CELERY_BROKER_URL,
            STATIC_ROOT=str(tmp_path / "static"),
            NGINX_DIR=str(tmp_path / "nginx"),
            SECRET_KEY="prod-local-test-" + "s3cr3t" * 8,
            PORT=str(self.port),
            APP_PORT=str(app_port),
            ASGI_PORT=str(asgi_port),
            WEB_WORKERS="1",
            LOG_LEVEL="WARNING",
        )
        env.pop("EMAIL_BACKEND", None)  # the script chooses console, explicitly
        self.log_path = tmp_path / "prod-local.log"
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            ["bash", "config/prod_local.sh"],
            cwd=REPO_ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def wait_healthy(self) -> str:
        browser = Browser(self.base)
        deadline = time.monotonic() + 180
        while True:
            assert self.process.poll() is None, self.output()
            with contextlib.suppress(OSError):
                status, _, body = browser.request("/healthz")
                if status == 200:
                    return body
            assert time.monotonic() < deadline, "the site did not come up within 180 s"
            time.sleep(0.5)

    def stop(self) -> list[str]:
        """SIGTERM as Ctrl-C; the processes of its group still alive a second later."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)  # the script stops its children
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                raise
        self.log.close()
        time.sleep(1)
        leftover = subprocess.run(
            ["pgrep", "-g", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split()
        if leftover:
            os.killpg(self.process.pid, signal.SIGKILL)
        return leftover


@pytest.fixture(scope="module")
def site(django_db_setup, tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("prod-local"))
    try:
        site.health = site.wait_healthy()
        yield site
    finally:
        site.stop()


def test_the_production_sequence_serves_the_site_on_plain_http(site):
    browser = Browser(site.base)
    assert json.loads(site.health) == {
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

    # live play: a room made on the page, its WebSocket through nginx to Daphne
    status, _, html = browser.request("/live/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    status, headers, _ = browser.request(
        "/live/", {"csrfmiddlewaretoken": token, "board": "4", "mode": "computer"}
    )
    assert status == 302, "room created"
    room = re.search(r"/live/([^/]+)/$", headers["Location"]).group(1)
    cookies = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
    ws_url = f"ws://127.0.0.1:{site.port}/ws/live/{room}/"
    with websocket_connect(
        ws_url, additional_headers={"Cookie": cookies, "Origin": site.base}, open_timeout=10
    ) as ws:
        state = json.loads(ws.recv(timeout=10))
    assert state, "the room's state arrives over the proxied WebSocket"
    # the production topology: two Daphne servers, both in nginx's upstream (round robin:
    # four sockets in a row reach both, each answered with the room's state)
    for port in site.asgi_ports:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    for _ in range(4):
        with websocket_connect(
            ws_url, additional_headers={"Cookie": cookies, "Origin": site.base}, open_timeout=10
        ) as ws:
            assert json.loads(ws.recv(timeout=10))["room"] == room
    assert "2 Daphne servers" in site.log_path.read_text(errors="replace")


def slow_client(port: int, kind: str) -> socket.socket:
    """A connection that starts a request and does not finish it: the headers (slowloris)
    or the body (a slow upload)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if kind == "headers":
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
    else:
        sock.sendall(
            b"POST /replay/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 100000\r\n\r\ncontent="
        )
    return sock


def test_slow_clients_do_not_keep_a_visitor_waiting(site):
    """Eight connections that send their request slowly (more than gunicorn's workers: one
    here, two by default): an ordinary request still answers at once, because nginx holds
    them and passes only complete requests on."""
    slow = [slow_client(site.port, "headers" if n % 2 else "body") for n in range(8)]
    try:
        time.sleep(1)
        for sock in slow:  # still sending, a byte at a time
            with contextlib.suppress(OSError):
                sock.sendall(b"X")
        browser = Browser(site.base)
        for path in ("/healthz", "/", "/accounts/login/"):
            started = time.monotonic()
            status, _, _ = browser.request(path, timeout=VISITOR_BOUND)
            assert status == 200, path
            assert time.monotonic() - started < VISITOR_BOUND
    finally:
        for sock in slow:
            sock.close()


def test_the_analyses_have_a_worker_of_their_own(site):
    """Issue 32: as the README's production sequence, the move analyses' queue is served by
    a worker of its own, so a backlog of analyses never holds up the standings."""
    from celery import Celery

    # not made current: a new app is otherwise ``current_app`` of this thread for every later
    # test of the process, and their tasks went to its broker (another Redis database)
    queues: dict[str, list[str]] = {}
    with Celery(broker=settings.TEST_CELERY_BROKER_URL, set_as_current=False) as app:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            replies = app.control.inspect(timeout=2).active_queues() or {}
            queues = {node: sorted(q["name"] for q in qs) for node, qs in replies.items()}
            if any(n.startswith("analysis@") for n in queues) and any(
                n.startswith("default@") for n in queues
            ):
                break
            time.sleep(1)
    mine = {
        n.split("@")[0]: q for n, q in queues.items() if n.split("@")[0] in ("default", "analysis")
    }
    assert mine == {"default": ["celery"], "analysis": ["analysis"]}, queues


def test_sigterm_stops_every_process(site):
    assert site.stop() == [], "proxy, web, ASGI, worker or beat still running after SIGTERM"
