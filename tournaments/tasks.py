"""Celery tasks: thin wrappers that load by id and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tournaments.services import analyses, standings

#: what a retry can cure: the database, the broker or Redis away for a moment. A bug in the
#: code fails the task once (logged); the beat's catch-up runs it again anyway (the ratings'
#: task, ``ratings/tasks.py``, uses it).
TRANSIENT_ERRORS = (
    OperationalError,
    InterfaceError,
    BrokerError,
    RedisConnectionError,
    RedisTimeoutError,
)


@shared_task(
    name="tournaments.recompute_standings",
    autoretry_for=(Exception,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def recompute_standings(league_id: int) -> dict:
    """Bring one league's standings snapshot to its results revision (idempotent; runs for
    one league coalesce: a run finding the league claimed leaves it to the holder)."""
    return standings.standings_recompute(league_id)


@shared_task(name="tournaments.standings_catch_up")
def standings_catch_up() -> list[int]:
    """Periodic safety net: recompute every league whose snapshot is behind its results
    (a lost message, a broker outage at submission time, a worker killed mid-run)."""
    stale = standings.leagues_with_stale_standings()
    for league_id in stale:
        recompute_standings.delay(league_id)
    return stale


@shared_task(name="tournaments.analyses_catch_up")
def analyses_catch_up() -> dict:
    """Periodic safety net of the move analyses: a queued analysis for every counted log
    without one, and the task sent again for analyses queued long ago."""
    return analyses.analyses_catch_up()
