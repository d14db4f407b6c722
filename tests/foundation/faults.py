"""Fault injection for the outage tests: a TCP server on 127.0.0.1 that accepts connections
and never answers (or relays them to a real server, switchable while it runs), a port that
refuses connections, and this process's Celery app pointed at such a broker. A Redis of a
test's own that it stops and starts is ``tests.processes.OwnRedis``."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

from django.test import override_settings

from config.celery_app import app as celery_app
from tests.celery_worker import _reset_app_connections
from tournaments.services.broker import publish_succeeded


class SilentServer:
    """Listens on a free port of 127.0.0.1. In ``silent`` mode every connection is accepted
    and held open without a byte of answer; in ``forward`` mode new connections are relayed
    to ``upstream`` (a real Redis, say), so an outage can end while a test runs."""

    def __init__(self, upstream: tuple[str, int] | None = None) -> None:
        self.upstream = upstream
        self.mode = "silent"
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._accept_loop, daemon=True)
        self._thread.start()

    def url(self, scheme: str = "redis", path: str = "/0") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def _accept_loop(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._keep(conn)
            if self.mode == "forward" and self.upstream is not None:
                upstream = socket.create_connection(self.upstream, timeout=5)
                upstream.settimeout(None)
                self._keep(upstream)
                for src, dst in ((conn, upstream), (upstream, conn)):
                    threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def drop(self) -> None:
        """Cut every open connection (as a broker restart does); the mode stays."""
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    sock.close()
            self._sockets.clear()

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        self._thread.join(5)
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.close()
            self._sockets.clear()


def refused_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """This process publishes to ``url`` (broker and Redis result store), not in-process;
    Django's settings say the same, so /healthz probes that broker too."""
    saved = {
        key: celery_app.conf.get(key)
        for key in ("broker_url", "result_backend", "task_always_eager")
    }
    celery_app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    _reset_app_connections()
    try:
        with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=url):
            yield
    finally:
        celery_app.conf.update(saved)
        _reset_app_connections()
        publish_succeeded()  # this process's memory of the outage ends with the test
