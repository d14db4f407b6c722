"""A short memory of broker outages, shared by the services that publish tasks on commit.

Every publish that fails during an outage costs the request its broker timeouts
(``CELERY_IO_TIMEOUT``). The standings, ratings and notifications record a failed publish
here; optional work (the move analyses) is not even tried while the last failure is recent,
so an outage adds no timeout of its own to a confirmation. The catch-up tasks send what was
skipped once the broker answers again.
"""

from __future__ import annotations

import time

#: how long after a failed publish optional tasks are not sent (seconds)
OUTAGE_MEMORY = 30.0

_last_failure = 0.0


def publish_failed() -> None:
    """A publish just failed (the broker is down or silent)."""
    global _last_failure
    _last_failure = time.monotonic()


def publish_succeeded() -> None:
    """A publish went through: the broker is back."""
    global _last_failure
    _last_failure = 0.0


def broker_recently_down() -> bool:
    """Whether a publish failed within the last ``OUTAGE_MEMORY`` seconds."""
    return bool(_last_failure) and time.monotonic() - _last_failure < OUTAGE_MEMORY
