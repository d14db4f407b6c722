"""Limits on the mails the platform sends because someone asked: invitations (sent by an
organizer) and address confirmations (asked for by the account itself).

Each mail is one ``MailSent`` row; before sending, the rows of the last hour and the last
day are counted for the **sender** (an account) and for the **recipient address**, against
the settings ``MAIL_LIMIT_SENDER_PER_HOUR`` / ``_PER_DAY`` and
``MAIL_LIMIT_RECIPIENT_PER_HOUR`` / ``_PER_DAY`` (docs/configuration.md). Past a limit
the request is refused with a message saying which limit and when to try again, and
nothing is sent or saved. The count sits in the database, not in the cache: it holds
across processes and through a Redis outage. Checks of one sender are serialised by a
lock on the sender's account row, and checks for one address by an advisory lock on it,
so two concurrent requests cannot both take the last mail of the hour. Staff are not
limited as senders (a recipient address is always).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from tournaments.models import MailSent
from tournaments.services.errors import coded, coded_text

DEFAULTS = {
    "MAIL_LIMIT_SENDER_PER_HOUR": 30,
    "MAIL_LIMIT_SENDER_PER_DAY": 200,
    "MAIL_LIMIT_RECIPIENT_PER_HOUR": 3,
    "MAIL_LIMIT_RECIPIENT_PER_DAY": 10,
}

WINDOWS = (("hour", timedelta(hours=1)), ("day", timedelta(days=1)))


def limit(name: str) -> int:
    return int(getattr(settings, name, DEFAULTS[name]))


def _wait(oldest, window: timedelta, now):
    """How long until the oldest mail leaves ``window`` (a coded phrase)."""
    minutes = max(1, int(((oldest + window) - now).total_seconds() // 60) + 1)
    if minutes >= 120:
        return coded_text("wait_hours", n=round(minutes / 60))
    return coded_text("wait_minute" if minutes == 1 else "wait_minutes", n=minutes)


def address_lock(email: str) -> None:
    """Serialise writes about one e-mail address until the transaction ends (PostgreSQL:
    a transaction-level advisory lock on the address's hash; SQLite has one writer at a
    time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [email.strip().lower()])


def mail_allowance_check(*, kind: str, sender, recipient: str) -> None:
    """Refuse (ServiceError, ``field="email"``) a mail of ``kind`` from ``sender`` to
    ``recipient`` past any limit. Call it inside the transaction that records the mail
    (:func:`mail_record`): it locks the sender's account row until that commits."""
    recipient = (recipient or "").strip().lower()
    now = timezone.now()
    if sender is not None and getattr(sender, "pk", None):
        get_user_model().objects.select_for_update().filter(pk=sender.pk).first()
    address_lock(recipient)
    for who, rows in _limited(sender, recipient):
        for span, window in WINDOWS:
            _check_window(who, rows, span, window, now, recipient)


def _limited(sender, recipient: str) -> list[tuple[str, object]]:
    """Whose mails are counted: the recipient address's, and the sender's (not staff)."""
    checks = [("RECIPIENT", MailSent.objects.filter(recipient=recipient))]
    if sender is not None and not getattr(sender, "is_staff", False):
        checks.append(("SENDER", MailSent.objects.filter(sender=sender)))
    return checks


def _check_window(counted: str, rows, span: str, window: timedelta, now, recipient: str) -> None:
    """Refuse a mail past the limit of ``counted`` (RECIPIENT or SENDER) in one window."""
    allowed = limit(f"MAIL_LIMIT_{counted}_PER_{span.upper()}")
    recent = rows.filter(sent_at__gt=now - window)
    count = recent.count()
    if count < allowed:
        return
    oldest = recent.order_by("sent_at").values_list("sent_at", flat=True).first()
    raise coded(
        f"mail_limit_{counted.lower()}_{span}",
        field="email",
        email=recipient,
        count=count,
        allowed=allowed,
        wait=_wait(oldest, window, now),
    )


def mail_record(*, kind: str, sender, recipient: str) -> MailSent:
    """Count one mail (after :func:`mail_allowance_check`, in the same transaction). Rows
    older than the longest window are of no use: this sender's and this address's go
    now, so the table holds about a day of mail."""
    recipient_key = (recipient or "").strip().lower()
    stale = MailSent.objects.filter(sent_at__lt=timezone.now() - WINDOWS[-1][1])
    stale.filter(recipient=recipient_key).delete()
    if getattr(sender, "pk", None):
        stale.filter(sender=sender).delete()
    return MailSent.objects.create(
        kind=kind,
        sender=sender if getattr(sender, "pk", None) else None,
        recipient=(recipient or "").strip().lower(),
    )
