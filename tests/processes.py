"""A helper process of the tests (a Celery worker, an ASGI server): started in its own
process group with its output in ``var/``, waited for, stopped or killed as a whole."""

from __future__ import annotations

import os
import signal
import subprocess
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
