"""Notifications: telling each recipient of an event once, the in-site inbox, e-mail sent
once (or in a daily digest), each user's switches and the signed one-click unsubscribe.

An event is (kind, object id, stamp), queued by the tournaments services on commit as the
task ``notifications.notify`` (``tournaments/services/notify.py``) or found by the
periodic ``notifications.notify_deadlines``. ``notify_event`` has the kind's function in
``notifications/kinds.py`` work out the recipients and the message; for each recipient it
creates at most one ``Notification`` (unique per user and event key) and hands its e-mail
to Django's backend at most once: the message is *claimed* in the database before it is
sent, and released again when the backend fails (the task is then retried). A worker
killed between claiming and sending loses that e-mail rather than sending it twice; the
inbox entry stays.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import AccountSettings
from accounts.services import language_of, languages_of
from notifications.kinds import event_recipients
from notifications.models import Kind, Notification, NotificationPreference
from tournaments.models import Fixture
from tournaments.selectors.desk import overdue_fixtures

logger = logging.getLogger(__name__)

#: how long before a game's time its players are reminded
DEADLINE_NOTICE = timedelta(hours=48)
#: as signed while the notifications were the accounts app's: the links of mails already
#: sent keep working
UNSUBSCRIBE_SALT = "accounts.notifications.unsubscribe"
#: not a notice: the action an earlier notice asked for is done (stamp: that notice's kind),
#: so its inbox items stop being new (``tournaments.services.notify.ACTION_DONE``)
ACTION_DONE = "action_done"


# --- sending ---------------------------------------------------------------------------------


def event_key(kind: str, object_id: int, stamp: str = "") -> str:
    return f"{kind}:{object_id}:{stamp}"[:200]


def notify_event(kind: str, object_id: int, stamp: str = "") -> dict:
    """Tell each recipient of one event once: an inbox entry and an e-mail, as their
    switches say. Safe to run again (a retried task): nothing is sent twice."""
    if kind == ACTION_DONE:
        return {"event": kind, "done": action_done(stamp, object_id)}
    with translation.override(settings.LANGUAGE_CODE):
        users, message = event_recipients(kind, object_id, stamp)
    if message is None:
        return {"event": kind, "created": 0, "emailed": 0}
    key = event_key(kind, object_id, stamp)
    created = emailed = 0
    switched = switches_of(users, kind)
    spoken = languages_of(users)
    digest = digest_users(users)  # their e-mails wait for the daily digest
    worded = {settings.LANGUAGE_CODE: message}
    for user in users:
        email_on, inbox_on = switched[user.pk]
        language = spoken[user.pk]
        if language not in worded:  # the same event in the recipient's language
            with translation.override(language):
                worded[language] = event_recipients(kind, object_id, stamp)[1] or message
        message = worded[language]
        if not (email_on or inbox_on):
            continue
        notification, made = _inbox_entry(user, key, kind, message, inbox_on)
        created += made
        if email_on and user.email and notification.emailed_at is None and user.pk not in digest:
            emailed += _deliver(notification)
    return {"event": kind, "created": created, "emailed": emailed}


def _inbox_entry(user, key: str, kind: str, message, inbox_on: bool) -> tuple[Notification, bool]:
    """The user's one notification of the event ``key`` (created once, whoever runs)."""
    try:
        with transaction.atomic():
            return Notification.objects.get_or_create(
                user=user,
                key=key,
                defaults=dict(
                    kind=kind,
                    subject=message.subject[:200],
                    body=message.body,
                    url=message.path,
                    in_inbox=inbox_on,
                ),
            )
    except IntegrityError:  # a concurrent run created it first
        return Notification.objects.get(user=user, key=key), False


def _deliver(notification: Notification) -> int:
    """Send the e-mail of ``notification`` unless another run has claimed it (1 if sent)."""
    claimed = Notification.objects.filter(pk=notification.pk, email_claimed_at__isnull=True).update(
        email_claimed_at=timezone.now()
    )
    if not claimed:
        return 0
    try:
        email_message(notification).send(fail_silently=False)
    except Exception:
        Notification.objects.filter(pk=notification.pk).update(email_claimed_at=None)
        raise  # the task is retried; this e-mail was not sent
    Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())
    return 1


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def email_message(notification: Notification) -> EmailMessage:
    user = notification.user
    unsubscribe = absolute(
        reverse("notifications_unsubscribe", args=[unsubscribe_token(user, notification.kind)])
    )
    with translation.override(language_of(user)):
        body = "\n\n".join(
            [
                notification.body,
                absolute(notification.url) if notification.url else "",
                _("Stop e-mails of this kind (one click): %(url)s") % {"url": unsubscribe},
                _("All your notification settings: %(url)s")
                % {"url": absolute(reverse("notifications_settings"))},
            ]
        )
    return EmailMessage(
        subject=notification.subject,
        body=body,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def digest_users(users: Iterable) -> set[int]:
    """The users (ids) who get their e-mails as one daily digest."""
    return set(
        AccountSettings.objects.filter(user__in=list(users), daily_digest=True).values_list(
            "user_id", flat=True
        )
    )


def digest_set(user, on: bool) -> None:
    AccountSettings.objects.update_or_create(user=user, defaults={"daily_digest": bool(on)})


def digest_of(user) -> bool:
    return user.pk in digest_users([user])


def send_digests(now: datetime | None = None) -> dict:
    """Periodic (``notifications.send_digests``, daily): each digest user's notices not mailed
    yet, whose kind they get by e-mail, in one mail in their language. The notices are
    claimed before the mail goes (as a single e-mail is), so a second run sends nothing
    twice; a failed send releases them for the next run."""
    sent = 0
    for notes in _digest_notes().values():
        ids = [n.pk for n in notes]
        claimed = Notification.objects.filter(pk__in=ids, email_claimed_at__isnull=True).update(
            email_claimed_at=timezone.now()
        )
        if claimed != len(ids):  # another run took some: leave them to it
            continue
        try:
            _digest_message(notes).send(fail_silently=False)
        except Exception:
            Notification.objects.filter(pk__in=ids).update(email_claimed_at=None)
            raise
        Notification.objects.filter(pk__in=ids).update(emailed_at=timezone.now())
        sent += 1
    return {"digests": sent}


def _digest_notes() -> dict[int, list[Notification]]:
    """Per digest user: their notices not mailed (nor claimed) yet, oldest first, of the
    kinds they get by e-mail."""
    waiting = Notification.objects.filter(
        user__account_settings__daily_digest=True,
        emailed_at__isnull=True,
        email_claimed_at__isnull=True,
    ).select_related("user")
    by_user: dict[int, list[Notification]] = {}
    for note in waiting.order_by("created_at", "pk"):
        if note.user.email and note.user.is_active and switches(note.user, note.kind)[0]:
            by_user.setdefault(note.user_id, []).append(note)
    return by_user


def _digest_message(notes: list[Notification]) -> EmailMessage:
    """One user's notices of the day as one mail, in their language."""
    user = notes[0].user
    with translation.override(language_of(user)):
        subject = _("Your notices of the day (%(n)s)") % {"n": len(notes)}
        parts = [
            f"- {n.subject}\n  {absolute(n.url)}" if n.url else f"- {n.subject}" for n in notes
        ]
        body = "\n\n".join(
            [
                "\n".join(parts),
                _("All your notification settings: %(url)s")
                % {"url": absolute(reverse("notifications_settings"))},
            ]
        )
    return EmailMessage(subject=subject, body=body, to=[user.email])


def action_done(kind: str, object_id: int) -> int:
    """The action that notices of (``kind``, ``object_id``) asked for is done (a result
    confirmed, an invitation answered, a request decided): their inbox items are no
    longer new, for every recipient. Returns how many changed."""
    prefix = event_key(kind, object_id, "")
    return Notification.objects.filter(key__startswith=prefix, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# --- periodic: deadlines and overdue games -----------------------------------------------


def deadline_sweep(now: datetime | None = None) -> dict:
    """Remind the players of games due within 48 hours, and tell players and organizers of
    games whose time has passed without a result. Each game's reminder is one event per
    scheduled time, so running this every few minutes sends each once."""
    now = now or timezone.now()
    soon = Fixture.objects.filter(
        status=Fixture.Status.SCHEDULED,
        scheduled_at__gt=now,
        scheduled_at__lte=now + DEADLINE_NOTICE,
    ).values_list("pk", "scheduled_at")
    # keyed by the scheduled time as before (a game dated by its deadline alone: that)
    late = overdue_fixtures(now=now).values_list("pk", Coalesce("scheduled_at", "deadline"))
    counts = {"deadline_near": 0, "game_overdue": 0}
    for kind, games in ((Kind.DEADLINE_NEAR, soon), (Kind.GAME_OVERDUE, late)):
        events = {event_key(kind, pk, when.isoformat()): (pk, when) for pk, when in games}
        # an event told before (by an earlier sweep) is not looked at again: an overdue
        # game stays overdue for every later sweep of the season
        told = set(Notification.objects.filter(key__in=events).values_list("key", flat=True))
        for key, (pk, when) in events.items():
            if key not in told:
                counts[str(kind)] += notify_event(kind, pk, when.isoformat())["created"]
    return counts


# --- switches, inbox, unsubscribe ------------------------------------------------------------


def switches(user, kind: str) -> tuple[bool, bool]:
    """(e-mail, inbox) for this user and kind: on unless switched off."""
    return switches_of([user], kind)[user.pk]


def switches_of(users: Iterable, kind: str) -> dict[int, tuple[bool, bool]]:
    """:func:`switches` of several users at once (one query): user pk → (e-mail, inbox)."""
    users = list(users)
    stored = {
        p.user_id: (p.email, p.inbox)
        for p in NotificationPreference.objects.filter(user__in=users, kind=kind)
    }
    return {u.pk: stored.get(u.pk, (True, True)) for u in users}


def preferences(user) -> list[tuple[str, str, bool, bool]]:
    """(kind, label, e-mail, inbox) for every kind."""
    stored = {p.kind: p for p in NotificationPreference.objects.filter(user=user)}
    return [
        (
            kind.value,
            kind.label,
            stored[kind].email if kind in stored else True,
            stored[kind].inbox if kind in stored else True,
        )
        for kind in Kind
    ]


def preferences_set(user, choices: dict[str, tuple[bool, bool]]) -> None:
    """Store the (e-mail, inbox) switches of the kinds given."""
    unknown = set(choices) - set(Kind.values)
    if unknown:
        raise ValueError(f"unknown notification kinds {sorted(unknown)}")
    with transaction.atomic():
        for kind, (email, inbox) in choices.items():
            NotificationPreference.objects.update_or_create(
                user=user, kind=kind, defaults={"email": email, "inbox": inbox}
            )


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(token: str):
    """Switch off the e-mails of the token's kind; the user and kind, or ``None`` for a
    token that was not made here or is older than ``UNSUBSCRIBE_MAX_AGE_DAYS`` (the
    signature carries the time it was made; every mail brings a fresh link, and the
    notification settings page switches any kind off without one)."""
    max_age = 60 * 60 * 24 * int(getattr(settings, "UNSUBSCRIBE_MAX_AGE_DAYS", 90))
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=max_age)
    except signing.BadSignature:  # SignatureExpired included
        return None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    kind = data.get("k")
    if user is None or kind not in Kind.values:
        return None
    _, inbox = switches(user, kind)
    preferences_set(user, {kind: (False, inbox)})
    return user, Kind(kind)


def unread(user_id: int):
    """The account's unread inbox notifications (the header's count)."""
    return Notification.objects.filter(user_id=user_id, in_inbox=True, read_at__isnull=True)


def unread_count(user) -> int:
    return unread(user.pk).count()


def inbox(user, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user=user, in_inbox=True)[:limit])


def mark_read(user, ids: Iterable[int] | None = None) -> int:
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())
