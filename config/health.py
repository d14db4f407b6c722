"""``/healthz``: is the database reachable, is the broker reachable? JSON, 200 or 503."""

from __future__ import annotations

import time

from django.conf import settings
from django.db import connections
from django.http import JsonResponse
from kombu import Connection


def check_database() -> dict:
    started = time.monotonic()
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not reachable"
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}".strip()}
    vendor = connections["default"].vendor
    return {"ok": True, "vendor": vendor, "ms": round((time.monotonic() - started) * 1000, 1)}


def check_broker() -> dict:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"ok": True, "mode": "in-process (eager): no broker configured"}
    url = settings.CELERY_BROKER_URL
    started = time.monotonic()
    try:
        with Connection(url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return {"ok": False, "transport": url.split(":", 1)[0], "error": type(exc).__name__}
    return {
        "ok": True,
        "transport": url.split(":", 1)[0],
        "ms": round((time.monotonic() - started) * 1000, 1),
    }


def healthz(request):
    checks = {"database": check_database(), "broker": check_broker()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
