"""Celery tasks of the games app: thin wrappers that load by id and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import analysis


@shared_task(
    name="games.analyse",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=120,
    max_retries=5,
)
def analyse(analysis_id: int) -> dict:
    """Compute one stored analysis (idempotent: a done or claimed row is left alone).
    Routed to the ``ANALYSIS_QUEUE`` queue (``CELERY_TASK_ROUTES``), so long analyses never
    delay the standings."""
    return analysis.analysis_run(analysis_id)
