"""A helper process of the tests and the benchmarks (a Celery worker, an ASGI or WSGI
server, nginx, a Redis of their own): started in its own process group with its output in
``var/``, waited for, stopped or killed as a whole. The one place that knows how each is
started (``tests/live/servers.py`` has the Daphne server); the fault tests
(``tests/foundation``, ``tests/live``) and the benchmarks (``bench/``) start theirs here."""

from __future__ import annotations

import getpass
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


class HelperProcess:
    """``cmd`` run from the repository with ``env``; its output goes to ``log_path``."""

    what = "process"  # for the error messages
    stop_seconds = 10.0  # SIGTERM's grace before SIGKILL

    def __init__(self, cmd: list[str], *, env: dict[str, str], log_path: Path) -> None:
        self.log_path = log_path
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_until(self, ready: Callable[[], bool], timeout: float, pause: float) -> None:
        """Poll ``ready()`` (an exception counts as not ready) until it is true; fail loudly
        if the process exits first or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.what} exited early; see {self.log_path}")
            try:
                if ready():
                    return
            except Exception:
                pass
            time.sleep(pause)
        raise RuntimeError(f"{self.what} not ready after {timeout}s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL the whole process group: no clean shutdown (a crash)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=self.stop_seconds)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now: within ``TEST_PORT_RANGE``
    (``first-last``) when that is set (several test runs sharing a machine keep to their own
    ports), else any the system gives."""
    wanted = os.environ.get("TEST_PORT_RANGE", "")
    if wanted:
        first, last = (int(x) for x in wanted.split("-"))
        ports = list(range(first, last + 1))
        random.shuffle(ports)
        for port in ports:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError(f"no free port in TEST_PORT_RANGE {wanted}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listens(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True


def redis_answers(port: int) -> bool:
    """Whether a Redis on 127.0.0.1:``port`` answers PING (listening is not enough: a
    starting Redis may accept before it serves)."""
    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(16).startswith(b"+PONG")


class RedisServer(HelperProcess):
    """A ``redis-server`` of its own on 127.0.0.1:``port`` (a free one unless given; never
    a shared Redis), without persistence: killed and started again on the same port, it
    comes back empty, as a restarted production Redis without a dump would."""

    what = "redis-server"

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        super().__init__(
            [*cmd, "--save", "", "--appendonly", "no", "--loglevel", "warning"],
            env=os.environ.copy(),
            log_path=REPO_ROOT / "var" / f"redis-{self.port}.log",
        )

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def wait_ready(self, timeout: float = 20.0) -> RedisServer:
        self.wait_until(lambda: redis_answers(self.port), timeout, 0.05)
        return self


class OwnRedis:
    """A Redis of its own at one address that can be stopped (an outage: connections are
    refused) and started again there (it comes back empty): a ``RedisServer`` per run."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.server: RedisServer | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> OwnRedis:
        self.server = RedisServer(self.port).wait_ready()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


class Gunicorn(HelperProcess):
    """``gunicorn <app>`` on 127.0.0.1:``port`` with ``workers`` sync workers, production's
    ``--max-requests`` (with jitter) and the settings of ``env`` (the caller waits for it to
    serve: each knows its own page)."""

    what = "gunicorn"
    stop_seconds = 30.0

    def __init__(
        self,
        env: dict[str, str],
        *,
        port: int,
        workers: int = 1,
        timeout: int | None = None,
        log_level: str = "error",
        config: Path | None = None,
        app: str = "config.wsgi",
        max_requests: int = 1000,
    ) -> None:
        self.port = port
        cmd = [sys.executable, "-m", "gunicorn", app, "-b", f"127.0.0.1:{port}"]
        cmd += ["-w", str(workers), "--log-level", log_level]
        # as production: a worker is replaced after max_requests (+ up to 10 %), so the peak
        # memory of one large answer is not kept for ever (0: never)
        if max_requests:
            cmd += ["--max-requests", str(max_requests)]
            cmd += ["--max-requests-jitter", str(max_requests // 10)]
        if timeout is not None:
            cmd += ["--timeout", str(timeout)]
        if config is not None:
            cmd += ["-c", str(config)]
        super().__init__(cmd, env=env, log_path=REPO_ROOT / "var" / f"gunicorn-{port}.log")


class Nginx(HelperProcess):
    """nginx in the foreground with the configuration ``conf`` and its files under
    ``directory`` (``-p``); as root, its workers run as the current user."""

    what = "nginx"

    def __init__(self, conf: Path, directory: Path) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
        cmd = [nginx, "-p", str(directory), "-c", str(conf), "-g", f"daemon off; {user}"]
        super().__init__(cmd, env=os.environ.copy(), log_path=Path(directory) / "nginx.out")


def nginx_from_template(
    *,
    port: int,
    app: str,
    asgi: list[str],
    directory: Path,
    open_limits: bool = False,
    shared_cache: bool = True,
) -> Nginx:
    """nginx from ``config/nginx.conf.template`` filled in as ``make prod-local`` does
    (``config/prod_local.sh``): listening on 127.0.0.1:``port``, gunicorn at ``app``
    (``host:port``), the Daphne servers ``asgi``; started and waited for (it listens).
    ``open_limits``: the per-address connection and socket-open limits raised (a bench
    whose thousands of clients all come from 127.0.0.1 and should not be refused);
    without it the template's limits hold as in production (a venue's phones share one
    address too). ``shared_cache=False``: the template's shared cache of anonymous answers
    switched off (``proxy_cache off``: a bench measuring the application's own rendering
    through the proxy)."""
    directory.mkdir(parents=True, exist_ok=True)
    text = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    text = (
        text.replace("@PREFIX@", str(directory))
        .replace("@LISTEN@", f"127.0.0.1:{port}")
        .replace("@APP@", app)
        .replace("@ASGI@", "; server ".join(asgi))
    )
    if open_limits:
        text = re.sub(r"limit_conn (\w+) \d+;", r"limit_conn \1 60000;", text)
        text = re.sub(r"rate=\d+r/s", "rate=100000r/s", text)
        text = re.sub(r"burst=\d+ nodelay", "burst=100000 nodelay", text)
    if not shared_cache:
        text, found = re.subn(r"proxy_cache \w+;", "proxy_cache off;", text)
        assert found == 1, "the template's proxy_cache line was not found"
    conf = directory / "nginx.conf"
    conf.write_text(text)
    proxy = Nginx(conf, directory)
    proxy.port = port
    proxy.url = f"http://127.0.0.1:{port}"
    proxy.wait_until(lambda: listens(port), 20, 0.1)  # (a refused connection: not yet)
    return proxy


class CeleryWorker(HelperProcess):
    """``celery -A config worker`` with the settings, broker and database of ``env``: the
    solo pool (or prefork with ``concurrency``), the ``queues`` given (else the default),
    and with ``beat_schedule`` (a schedule file) beat in the same process (``-B``)."""

    what = "celery worker"
    stop_seconds = 20.0

    def __init__(
        self,
        env: dict[str, str],
        *,
        log_path: Path,
        concurrency: int = 1,
        queues: list[str] | None = None,
        beat_schedule: Path | None = None,
        loglevel: str = "warning",
    ) -> None:
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", loglevel]
        cmd += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        if queues:
            cmd += ["-Q", ",".join(queues)]
        if beat_schedule is not None:
            cmd += ["-B", "-s", str(beat_schedule)]
        cmd += ["-P", "solo"] if concurrency == 1 else ["-P", "prefork", "-c", str(concurrency)]
        super().__init__(cmd, env=env, log_path=log_path)


class CeleryBeat(HelperProcess):
    """``celery -A config beat`` (beat alone, no worker) with the settings, broker and
    database of ``env`` and the schedule file ``schedule``."""

    what = "celery beat"
    stop_seconds = 20.0

    def __init__(self, env: dict[str, str], *, schedule: Path, log_path: Path) -> None:
        cmd = [sys.executable, "-m", "celery", "-A", "config", "beat", "--schedule", str(schedule)]
        super().__init__(cmd, env=env, log_path=log_path)
