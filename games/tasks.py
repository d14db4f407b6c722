"""Celery tasks of the games app: thin wrappers that load by id and call a service."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from games import analysis


@shared_task(
    name="games.analyse",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=120,
    max_retries=5,
    # explicit bounds (wall seconds): past the soft limit the row is marked too long to
    # analyse (games.analysis.analysis_run), past the hard one the worker process is killed
    soft_time_limit=getattr(settings, "ANALYSIS_SOFT_TIME_LIMIT", 180),
    time_limit=getattr(settings, "ANALYSIS_TIME_LIMIT", 240),
)
def analyse(analysis_id: int) -> dict:
    """Compute one stored analysis (idempotent: a done or claimed row is left alone).
    Routed to the ``ANALYSIS_QUEUE`` queue (``CELERY_TASK_ROUTES``), so long analyses never
    delay the standings; bounded by ``ANALYSIS_MAX_EVENTS``, ``ANALYSIS_MAX_CPU_SECONDS``
    and the time limits above."""
    return analysis.analysis_run(analysis_id)
