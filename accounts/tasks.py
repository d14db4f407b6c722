"""Celery tasks of the accounts app: thin wrappers around ``accounts.notifications``."""

from __future__ import annotations

from celery import shared_task

from accounts import notifications


@shared_task(
    name="accounts.notify",
    autoretry_for=(Exception,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=6,
)
def notify(kind: str, object_id: int, stamp: str = "") -> dict:
    """Tell the recipients of one event (idempotent: a retry sends nothing twice)."""
    return notifications.notify_event(kind, object_id, stamp)


@shared_task(name="accounts.notify_deadlines")
def notify_deadlines() -> dict:
    """Periodic: games due within 48 hours, and overdue games."""
    return notifications.deadline_sweep()
