"""What a retry can cure: the one tuple the tasks retry on and the services re-raise
instead of blaming the data."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

#: an outage, not a bug: the database, the broker or Redis away for a moment. A task
#: retries on these (``autoretry_for``) and only on these; a recompute that fails with one
#: raises it for its task to retry rather than recording the league's data as broken.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    BrokerError,
    RedisConnectionError,
    RedisTimeoutError,
)
