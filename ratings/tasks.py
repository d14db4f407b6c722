"""The ratings' Celery task: a thin wrapper around the update service."""

from __future__ import annotations

from celery import shared_task

from core.retry import OUTAGE_ERRORS
from ratings.services import ratings


@shared_task(
    # the name it has always had (queued messages, the beat's ``ratings-catch-up``)
    name="tournaments.update_ratings",
    autoretry_for=OUTAGE_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def update_ratings() -> dict:
    """Apply every pending rated game in sequence order (idempotent: a duplicate or retried
    run finds nothing pending; a correction or void of a rated game replays from it), one
    worker at a time: a task finding the update claimed leaves it to the holder.
    Retried only on an outage (``core.retry.OUTAGE_ERRORS``), never on an error of its own."""
    return ratings.ratings_update_coalesced()
