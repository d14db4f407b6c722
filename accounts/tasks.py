"""Celery tasks of the accounts app: thin wrappers around ``accounts.notifications``."""

from __future__ import annotations

import smtplib
import socket

from celery import shared_task

from accounts import notifications
from core.retry import OUTAGE_ERRORS

#: what a retry of a notification can cure besides an outage of the database or the broker:
#: the mail server away or refusing for a moment. A bug fails the task once (logged).
MAIL_ERRORS = (smtplib.SMTPException, ConnectionError, TimeoutError, socket.gaierror)


@shared_task(
    name="accounts.notify",
    autoretry_for=OUTAGE_ERRORS + MAIL_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=6,
)
def notify(kind: str, object_id: int, stamp: str = "") -> dict:
    """Tell the recipients of one event (idempotent: a retry sends nothing twice).
    Retried on an outage of the database, the broker or the mail server, never on an
    error of its own."""
    return notifications.notify_event(kind, object_id, stamp)


@shared_task(name="accounts.send_digests", autoretry_for=OUTAGE_ERRORS + MAIL_ERRORS)
def send_digests() -> dict:
    """Periodic (daily): the day's e-mails of the accounts that chose a digest."""
    return notifications.send_digests()


@shared_task(name="accounts.notify_deadlines")
def notify_deadlines() -> dict:
    """Periodic: games due within 48 hours, and overdue games."""
    return notifications.deadline_sweep()
