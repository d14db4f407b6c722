"""Celery tasks of the notifications app: thin wrappers around ``notifications.services``.
(Named ``accounts.*`` until the app moved out of accounts.)"""

from __future__ import annotations

import smtplib
import socket

from celery import shared_task

from core.retry import OUTAGE_ERRORS
from notifications import services

#: what a retry of a notification can cure besides an outage of the database or the broker:
#: the mail server away or refusing for a moment. A bug fails the task once (logged).
MAIL_ERRORS = (smtplib.SMTPException, ConnectionError, TimeoutError, socket.gaierror)


@shared_task(
    name="notifications.notify",
    autoretry_for=OUTAGE_ERRORS + MAIL_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=6,
)
def notify(kind: str, object_id: int, stamp: str = "") -> dict:
    """Tell the recipients of one event (idempotent: a retry sends nothing twice).
    Retried on an outage of the database, the broker or the mail server, never on an
    error of its own."""
    return services.notify_event(kind, object_id, stamp)


@shared_task(name="notifications.send_digests", autoretry_for=OUTAGE_ERRORS + MAIL_ERRORS)
def send_digests() -> dict:
    """Periodic (daily): the day's e-mails of the accounts that chose a digest."""
    return services.send_digests()


@shared_task(name="notifications.notify_deadlines")
def notify_deadlines() -> dict:
    """Periodic: games due within 48 hours, and overdue games."""
    return services.deadline_sweep()
