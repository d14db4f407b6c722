"""``/healthz``: database, broker, cache and static files, each probed in its own thread
under one deadline, so the answer (200 or 503, JSON) comes within ``HEALTHZ_TIMEOUT``
seconds whatever a dependency does.

The body says only ``ok`` or a short error per dependency: no host, port, driver message or
version (those go to the server's log, logger ``config.health``).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.cache import caches
from django.db import connections
from django.http import JsonResponse
from django.utils.functional import empty
from kombu import Connection

logger = logging.getLogger(__name__)

TIMED_OUT = "timed out"
UNREACHABLE = "unreachable"


class ProbeFailed(Exception):
    """A probe found its dependency unusable; the message is safe to show anyone."""


def check_database() -> None:
    """``SELECT 1`` on a connection of this (probe) thread, closed again afterwards."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connections.close_all()  # only this thread's connections


def check_broker() -> None:
    """Connect to the Celery broker with the publishing timeouts; nothing to do when tasks
    run in-process (no broker configured)."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return
    timeout = settings.CELERY_IO_TIMEOUT
    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {})
    options["max_retries"] = 0
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=timeout, transport_options=options
    ) as conn:
        conn.ensure_connection(max_retries=0, timeout=timeout)


def check_cache() -> None:
    """A write and a read of the default cache (shared Redis or per process). The shared
    Redis cache is probed past its outage fallback (``config/cache.py``), which would
    otherwise answer for it."""
    cache = caches["default"]
    if hasattr(cache, "check"):
        cache.check()
        return
    key = "healthz:probe"
    cache.set(key, "1", 10)
    if cache.get(key) != "1":
        raise ProbeFailed("cache does not keep what it was given")


# Project files every page links to: with a manifest storage, each must be in the manifest
# that this process loaded, and on disk under STATIC_ROOT.
def _project_static_files() -> tuple[str, ...]:
    roots = tuple(
        str(directory if isinstance(directory, str | Path) else directory[1])
        for directory in settings.STATICFILES_DIRS
    )
    return _static_files_under(roots)


@functools.cache
def _static_files_under(roots: tuple[str, ...]) -> tuple[str, ...]:
    """The files of the source directories, walked once per process: they change only with
    a deploy, which restarts it (what is collected under STATIC_ROOT is checked each time)."""
    names: list[str] = []
    for root in map(Path, roots):
        names += sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return tuple(names)


def check_static_files() -> None:
    """With a manifest storage (production): the manifest exists, this process has loaded
    it, and the project's own files are collected. Other storages serve from the sources."""
    if staticfiles_storage._wrapped is empty:
        staticfiles_storage._setup()
    wrapped = staticfiles_storage._wrapped
    if not isinstance(wrapped, ManifestFilesMixin):
        return
    if not wrapped.manifest_storage.exists(wrapped.manifest_name):
        raise ProbeFailed("static files manifest missing: run `manage.py collectstatic`")
    if not wrapped.hashed_files:
        raise ProbeFailed("static files were collected after this process started: restart it")
    for name in _project_static_files():
        stored = wrapped.hashed_files.get(name)
        if stored is None:
            raise ProbeFailed(f"static file {name} is not in the manifest: run collectstatic")
        if not wrapped.exists(stored):
            raise ProbeFailed(f"static file {name} is missing: run collectstatic")


PROBES: dict[str, Callable[[], None]] = {
    "database": lambda: check_database(),
    "broker": lambda: check_broker(),
    "cache": lambda: check_cache(),
    "static": lambda: check_static_files(),
}

# One probe thread per dependency at a time: a dependency that hangs ties up one thread
# (until its own socket timeout), not one per request.
_running: dict[str, threading.Thread] = {}
_running_lock = threading.Lock()


def _run_probe(name: str, probe: Callable[[], None], results: dict) -> None:
    try:
        probe()
    except ProbeFailed as exc:
        results[name] = {"ok": False, "error": str(exc)}
    except Exception as exc:  # any driver or socket error means "not usable"
        logger.warning("healthz: %s probe failed: %s: %s", name, type(exc).__name__, exc)
        results[name] = {"ok": False, "error": UNREACHABLE}
    else:
        results[name] = {"ok": True}


#: seconds of HEALTHZ_TIMEOUT kept for writing the answer once the probes are given up
ANSWER_MARGIN = 0.1


def run_probes(timeout: float | None = None) -> dict[str, dict]:
    """Every probe in parallel; a probe that has not answered by ``timeout`` (default
    ``HEALTHZ_TIMEOUT`` less ``ANSWER_MARGIN``, so the answer itself is out within
    ``HEALTHZ_TIMEOUT``) counts as failed with ``timed out``."""
    if timeout is None:
        timeout = max(0.1, settings.HEALTHZ_TIMEOUT - ANSWER_MARGIN)
    deadline = time.monotonic() + timeout
    results: dict[str, dict] = {}
    started: dict[str, threading.Thread] = {}
    for name, probe in PROBES.items():
        with _running_lock:
            previous = _running.get(name)
            if previous is not None and previous.is_alive():
                results[name] = {"ok": False, "error": TIMED_OUT}
                continue
            thread = threading.Thread(
                target=_run_probe, args=(name, probe, results), name=f"healthz-{name}"
            )
            thread.daemon = True
            _running[name] = thread
        thread.start()
        started[name] = thread
    for name, thread in started.items():
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            logger.warning("healthz: %s probe gave no answer within %.1f s", name, timeout)
            results[name] = {"ok": False, "error": TIMED_OUT}
    return {name: results[name] for name in PROBES}


def healthz(request):
    checks = run_probes()
    healthy = all(check["ok"] for check in checks.values())
    response = JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
    response["Cache-Control"] = "no-store"
    return response
