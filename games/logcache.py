"""Caching what is computed from a game log, keyed by the log's SHA-256 (logs never change)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache

CACHE_SECONDS = 60 * 60 * 24

T = TypeVar("T")


def log_sha256(text: str) -> str:
    """The SHA-256 of a log's text (as ``GameLog.sha256`` stores it)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(kind: str, sha256: str) -> str:
    """The cache key of ``kind`` computed for the log with that SHA-256."""
    return f"replay:{kind}:{sha256}"


def cached(kind: str, text: str, build: Callable[[], T]) -> T | Any:
    """``build()`` for this log, from the shared cache when it was computed before."""
    key = cache_key(kind, log_sha256(text))
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, CACHE_SECONDS)
    return value
