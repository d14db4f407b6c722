"""The shared Redis cache, made so that an outage of Redis never fails a request.

Django's ``RedisCache`` raises on every call while Redis is down (a 500 for every log-in,
upload and standings page, since throttles and the page cache use it) and, with redis-py's
default socket timeout, holds each call 5 s while Redis hangs. ``ResilientRedisCache``:

- gives every Redis call short socket timeouts (``CACHE_IO_TIMEOUT``, set in the settings);
- on a Redis error opens an *outage*: it is logged once (logger ``config.cache``, ERROR),
  and for the next ``RETRY_SECONDS`` no call of this process goes to Redis at all; then one
  call tries again (so a hung Redis costs one request one timeout every few seconds, not
  every request a timeout); the first success ends the outage (logged once, WARNING);
- during an outage serves from a bounded per-process memory: at most ``FALLBACK_ENTRIES``
  values of at most ``FALLBACK_MAX_BYTES`` each. Throttle histories and counters fit, so
  the limits still hold per process; rendered pages and tables do not, so the page cache is
  skipped (a miss, the page is rendered) rather than filling the memory of every process.
  The fallback is emptied when Redis answers again.

Keys of this project are versioned by content (a snapshot's stamp, a log's SHA-256), so
nothing written to Redis before an outage is stale after it.
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: what counts as "Redis is unusable": connection refused or reset, timeouts, a server
#: that answers with an error (read-only replica, out of memory)
CACHE_ERRORS = (RedisError, OSError)


class Outage:
    """The state of one Redis location in this process (shared by every thread's backend)."""

    def __init__(self, location: str, retry_seconds: float, entries: int, timeout) -> None:
        self.location = location
        self.retry_seconds = retry_seconds
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.next_try = 0.0
        self.skipped = 0
        self.fallback = LocMemCache(
            f"maedn-cache-fallback:{location}",
            {"TIMEOUT": timeout, "OPTIONS": {"MAX_ENTRIES": entries, "CULL_FREQUENCY": 3}},
        )

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def should_try(self) -> bool:
        """Whether this call may go to Redis: always outside an outage; during one, only the
        first call after each ``retry_seconds`` (it claims the try for itself)."""
        if self.down_since is None:
            return True
        with self.lock:
            if self.down_since is None:
                return True
            now = time.monotonic()
            if now >= self.next_try:
                self.next_try = now + self.retry_seconds
                return True
            self.skipped += 1
            return False

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            now = time.monotonic()
            self.next_try = now + self.retry_seconds
            if self.down_since is not None:
                return
            self.down_since = now
            self.skipped = 0
        logger.error(
            "cache unreachable (%s: %s): serving without it until it answers (throttles "
            "count per process, pages are rendered each time); next try in %.0f s",
            type(exc).__name__,
            exc,
            self.retry_seconds,
        )

    def succeeded(self) -> None:
        if self.down_since is None:
            return
        with self.lock:
            if self.down_since is None:
                return
            lasted = time.monotonic() - self.down_since
            skipped = self.skipped
            self.down_since = None
            self.fallback.clear()
        logger.warning(
            "cache answers again after %.1f s of outage (%d calls served without it)",
            lasted,
            skipped,
        )


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage_for(location: str, retry_seconds: float, entries: int, timeout) -> Outage:
    with _outages_lock:
        outage = _outages.get(location)
        if outage is None or outage.retry_seconds != retry_seconds:
            outage = _outages[location] = Outage(location, retry_seconds, entries, timeout)
        return outage


class ResilientRedisCache(RedisCache):
    """``RedisCache`` whose calls never raise for a Redis outage (see the module)."""

    def __init__(self, server, params: dict[str, Any]) -> None:
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        retry_seconds = float(options.pop("RETRY_SECONDS", 5.0))
        entries = int(options.pop("FALLBACK_ENTRIES", 10_000))
        self.fallback_max_bytes = int(options.pop("FALLBACK_MAX_BYTES", 4096))
        params["OPTIONS"] = options
        super().__init__(server, params)
        location = server if isinstance(server, str) else ",".join(server)
        self.outage = outage_for(location, retry_seconds, entries, params.get("TIMEOUT", 300))

    @property
    def available(self) -> bool:
        """False during an outage of this process."""
        return not self.outage.down

    def _guarded(self, shared: Callable[[], T], fallback: Callable[[], T]) -> T:
        if not self.outage.should_try():
            return fallback()
        try:
            result = shared()
        except CACHE_ERRORS as exc:
            self.outage.failed(exc)
            return fallback()
        self.outage.succeeded()
        return result

    def _small(self, value: Any) -> bool:
        """Whether ``value`` may be kept in the per-process fallback."""
        if isinstance(value, str | bytes):
            return len(value) <= self.fallback_max_bytes
        try:
            return len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)) <= self.fallback_max_bytes
        except Exception:
            return False

    def check(self) -> None:
        """A write and a read straight to Redis (``/healthz``): raises when Redis is
        unusable, and ends or starts this process's outage accordingly."""
        key = "healthz:probe"
        try:
            super().set(key, "1", 10)
            value = super().get(key)
        except CACHE_ERRORS as exc:
            self.outage.failed(exc)
            raise
        self.outage.succeeded()
        if value != "1":
            raise ValueError("the cache does not keep what it was given")

    # --- Django's cache API ---------------------------------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda: self._small(value) and fallback.add(key, value, timeout, version),
        )

    def get(self, key, default=None, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: fallback.get(key, default, version),
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fallback = self.outage.fallback

        def keep_locally():
            if self._small(value):
                fallback.set(key, value, timeout, version)
            else:
                fallback.delete(key, version)

        return self._guarded(
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            keep_locally,
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda: fallback.touch(key, timeout, version),
        )

    def delete(self, key, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).delete(key, version),
            lambda: fallback.delete(key, version),
        )

    def get_many(self, keys, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda: fallback.get_many(keys, version),
        )

    def has_key(self, key, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).has_key(key, version),
            lambda: fallback.has_key(key, version),
        )

    def incr(self, key, delta=1, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).incr(key, delta, version),
            lambda: fallback.incr(key, delta, version),
        )

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        fallback = self.outage.fallback

        def keep_locally():
            fallback.set_many({k: v for k, v in data.items() if self._small(v)}, timeout, version)
            return []

        return self._guarded(
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            keep_locally,
        )

    def delete_many(self, keys, version=None):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: fallback.delete_many(keys, version),
        )

    def clear(self):
        fallback = self.outage.fallback
        return self._guarded(
            lambda: super(ResilientRedisCache, self).clear(),
            lambda: fallback.clear() or False,
        )
