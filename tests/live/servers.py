"""Real ASGI servers for the live-play tests and the benchmark: Daphne subprocesses on free
loopback ports, the test database and the Redis channel layer, and a WebSocket client."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from tests.processes import REPO_ROOT, HelperProcess, free_port, listens

__all__ = ["Daphne", "free_port", "receive", "session_cookie", "ws_connect"]


class Daphne(HelperProcess):
    """``daphne config.asgi:application`` on 127.0.0.1:``port`` in its own process group."""

    what = "daphne"

    def __init__(self, *, database_url: str, env: dict[str, str] | None = None, port=None):
        self.port = port or free_port()
        full = os.environ.copy()
        full.update(
            DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.test"),
            DATABASE_URL=database_url,
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="WARNING",
        )
        full.pop("TEST_CELERY_WORKER", None)
        full.update(env or {})
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        cmd += ["--websocket_connect_timeout", "30"]  # as config/prod_local.sh and the README
        super().__init__(
            [*cmd, "config.asgi:application"],
            env=full,
            log_path=REPO_ROOT / "var" / f"daphne-{self.port}.log",
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 30.0) -> Daphne:
        self.wait_until(lambda: listens(self.port), timeout, 0.1)
        return self


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def ws_connect(server_url: str, token: str, cookie: str | None = None):
    import websockets

    headers = {"Cookie": cookie} if cookie else {}
    host = server_url.split("//", 1)[1]
    return await websockets.connect(
        f"ws://{host}/ws/live/{token}/",
        origin=f"http://{host}",
        additional_headers=headers,
        max_size=2**22,
        open_timeout=10,
    )


async def receive(ws, timeout: float = 10.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))
