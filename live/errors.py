"""Expected failures of live play's infrastructure, logged as one line each.

A Redis restart or hang, the broker away, the database restarting: live play goes on (every
message carries the whole state, the sweep repairs lost timers), so these are warnings of
one line — what failed and why — not tracebacks. A Redis restart used to leave about 200
tracebacks in each server's and worker's log (issue 33). Anything else (a bug) is still
logged with its traceback.
"""

from __future__ import annotations

import asyncio
import logging

import kombu.exceptions
import redis.exceptions
from django.db import InterfaceError, OperationalError


def _expected_types() -> tuple[type[BaseException], ...]:
    return (
        ConnectionError,  # refused, reset, broken pipe (OSError subclasses)
        TimeoutError,  # asyncio.TimeoutError is TimeoutError since Python 3.11
        asyncio.TimeoutError,
        EOFError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        redis.exceptions.BusyLoadingError,
        redis.exceptions.ReadOnlyError,
        kombu.exceptions.OperationalError,
        OperationalError,
        InterfaceError,
    )


EXPECTED: tuple[type[BaseException], ...] = _expected_types()


def expected(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) is an outage of Redis, the broker or the
    database: a connection refused, reset or timed out."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, EXPECTED):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:300]
    name = f"{type(exc).__module__}.{type(exc).__qualname__}"
    return f"{name}: {text}" if text else name


def log_failure(logger: logging.Logger, exc: BaseException, what: str, *args) -> None:
    """``what % args`` failed with ``exc``: one warning line for an expected outage, the
    traceback (an error) for anything else."""
    if expected(exc):
        logger.warning(f"{what}: %s", *args, one_line(exc))
    else:
        logger.error(what, *args, exc_info=exc)
