"""Notifications: who is told of which event, the in-site inbox, e-mail sent once, each
user's switches and the signed one-click unsubscribe.

An event is (kind, object id, stamp), queued by the tournaments services on commit as the
task ``accounts.notify`` (``tournaments/services/notify.py``) or found by the periodic
``accounts.notify_deadlines``. ``notify_event`` works out the recipients; for each it
creates at most one ``Notification`` (unique per user and event key) and hands its e-mail
to Django's backend at most once: the message is *claimed* in the database before it is
sent, and released again when the backend fails (the task is then retried). A worker
killed between claiming and sending loses that e-mail rather than sending it twice; the
inbox entry stays.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import AccountSettings, Kind, Notification, NotificationPreference
from tournaments.models import Entry, Fixture, League, PlayerClaim, Result, ResultLink
from tournaments.selectors.desk import overdue_fixtures

logger = logging.getLogger(__name__)

#: how long before a game's time its players are reminded
DEADLINE_NOTICE = timedelta(hours=48)
UNSUBSCRIBE_SALT = "accounts.notifications.unsubscribe"
#: not a notice: the action an earlier notice asked for is done (stamp: that notice's kind),
#: so its inbox items stop being new (``tournaments.services.notify.ACTION_DONE``)
ACTION_DONE = "action_done"


@dataclass(frozen=True)
class Message:
    kind: str
    subject: str
    body: str
    path: str  # a path on this site


# --- recipients ------------------------------------------------------------------------------


def _players(fixture: Fixture) -> list:
    users = []
    for seat in fixture.seats.select_related("entry__player__user"):
        user = seat.entry.player.user
        if user is not None and user.is_active:
            users.append(user)
    return users


def _organizers(league: League) -> list:
    users = {league.owner_id: league.owner}
    users.update({u.pk: u for u in league.organizers.all()})
    return [u for u in users.values() if u.is_active]


def _entrants(league: League) -> list:
    return [
        e.player.user
        for e in league.entries.playing().select_related("player__user")
        if e.player.user is not None and e.player.user.is_active
    ]


def _game_name(fixture: Fixture) -> str:
    names = " – ".join(s.entry.player.name for s in fixture.seats.select_related("entry__player"))
    label = fixture.label or str(fixture.number)
    return _("game %(label)s (%(names)s) in %(league)s") % {
        "label": label,
        "names": names,
        "league": fixture.league.name,
    }


def _when(moment) -> str:
    """A date and time in the site's time zone, in the active language's format, with the
    zone's name (the reader may live elsewhere): "Sun 7 Dec 2026, 19:00 CET"."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{date_format(local, 'D j M Y, H:i')} {local.tzname()}"


def _sentence(text: str) -> str:
    """A mail's sentence starts with a capital ("game G1 …" → "Game G1 …")."""
    return text[:1].upper() + text[1:]


def _result(object_id: int) -> Result | None:
    return (
        Result.objects.select_related(
            "fixture__league__owner", "submitted_by", "decided_by", "submitted_via__entry__player"
        )
        .filter(pk=object_id)
        .first()
    )


def event_recipients(kind: str, object_id: int, stamp: str = "") -> tuple[list, Message | None]:  # noqa: C901 (one branch per notification kind, each a few lines)
    """The users to tell of this event and what to tell them (no one when the object is
    gone, or the event no longer holds: a result confirmed before the task ran)."""
    if kind == Kind.RESULT_AWAITING:
        result = _result(object_id)
        if result is None or result.state != Result.State.PENDING:
            return [], None
        fixture = result.fixture
        users = [u for u in _players(fixture) if u.pk != result.submitted_by_id]
        if result.submitted_via is not None:  # an account-less player's private result link
            who = result.submitted_via.entry.player.name
        else:
            who = result.submitted_by.get_username() if result.submitted_by else _("someone")
        return users, Message(
            kind,
            _("Please confirm the result of %(game)s") % {"game": _game_name(fixture)},
            _(
                "%(who)s submitted the result of %(game)s. It counts once you confirm it; if it "
                "is wrong, dispute it and an organizer decides."
            )
            % {"who": who, "game": _game_name(fixture)},
            reverse("tournaments:game", args=[fixture.pk]),
        )
    if kind == Kind.DISPUTE_OPENED:
        result = _result(object_id)
        if result is None:
            return [], None
        fixture = result.fixture
        seated = {u.pk for u in _players(fixture)}
        organizers = _organizers(fixture.league)
        # those who may decide it; when every organizer plays in the game, all of them
        users = [u for u in organizers if u.pk not in seated] or organizers
        return users, Message(
            kind,
            _("A result was disputed: %(game)s") % {"game": _game_name(fixture)},
            _("The result of %(game)s was disputed: “%(why)s”. Decide it on the results desk.")
            % {"game": _game_name(fixture), "why": result.decision_note},
            reverse("tournaments:desk", args=[fixture.league.slug]),
        )
    if kind == Kind.DECISION_MADE:
        result = _result(object_id)
        if result is None:
            return [], None
        fixture = result.fixture
        users = [u for u in _players(fixture) if u.pk != result.decided_by_id]
        how = {
            Result.State.CONFIRMED: _("counts"),
            Result.State.REJECTED: _("was rejected"),
            Result.State.VOIDED: _("was voided; the game is open again"),
        }.get(stamp, stamp)
        why = result.decision_note or result.reason
        own_upload = (
            result.submitted_by_id is not None
            and result.submitted_by_id == result.decided_by_id
            and stamp == Result.State.CONFIRMED
        )
        if own_upload:  # an organizer submitted (or entered) it: nobody else decided
            body = _("%(who)s, an organizer, submitted the result of %(game)s: it counts.") % {
                "who": result.submitted_by.get_username(),
                "game": _game_name(fixture),
            }
        else:
            body = _("An organizer decided the result of %(game)s: it %(how)s.") % {
                "game": _game_name(fixture),
                "how": how,
            }
        if why:
            body += " " + _("Reason: %(why)s") % {"why": why}
        return users, Message(
            kind,
            _("Decision on %(game)s") % {"game": _game_name(fixture)},
            body,
            reverse("tournaments:game", args=[fixture.pk]),
        )
    if kind == Kind.SCHEDULE_CHANGED:
        league = League.objects.filter(pk=object_id).select_related("owner").first()
        if league is None:
            return [], None
        seeded = "-seeded" in stamp
        return _entrants(league), Message(
            kind,
            (
                _("A new double round-robin of %(league)s is seeded")
                if seeded
                else _("The schedule of %(league)s changed")
            )
            % {"league": league.name},
            _("See your games and their dates on the schedule of %(league)s.")
            % {"league": league.name},
            reverse("tournaments:schedule", args=[league.slug]),
        )
    if kind in (Kind.DEADLINE_NEAR, Kind.GAME_OVERDUE):
        fixture = Fixture.objects.select_related("league__owner").filter(pk=object_id).first()
        if fixture is None or fixture.status != Fixture.Status.SCHEDULED:
            return [], None
        users = _players(fixture)
        game = _game_name(fixture)
        when = _when(fixture.scheduled_at)
        due = _when(fixture.deadline)
        if kind == Kind.GAME_OVERDUE:
            seen = {u.pk for u in users}
            users += [u for u in _organizers(fixture.league) if u.pk not in seen]
            subject = _("Overdue: %(game)s") % {"game": game}
            if due:
                body = _("The result of %(game)s was due by %(due)s and is still missing.")
            else:
                body = _("%(game)s was scheduled for %(when)s and has no result yet.")
        else:
            subject = _("Within 48 hours: %(game)s") % {"game": game}
            if due:
                body = _(
                    "%(game)s is scheduled for %(when)s; its result is due by %(due)s. "
                    "Play it and submit the log in time."
                )
            else:
                body = _("%(game)s is scheduled for %(when)s. Play it and submit the log in time.")
        return users, Message(
            kind,
            subject,
            _sentence(body % {"game": game, "when": when, "due": due}),
            reverse("tournaments:game", args=[fixture.pk]),
        )
    if kind == Kind.STANDINGS_FAILED:
        league = League.objects.filter(pk=object_id).select_related("owner").first()
        failure = getattr(league, "standings_failure", None) if league else None
        if league is None or failure is None:
            return [], None  # repaired before the task ran
        return _organizers(league), Message(
            kind,
            _("The standings of %(league)s could not be computed") % {"league": league.name},
            _(
                "Counting the results of %(league)s (revision %(revision)s) failed, so its "
                "table shows the last one that could be computed. Reason: %(why)s"
            )
            % {"league": league.name, "revision": failure.revision, "why": failure.error},
            reverse("tournaments:standings", args=[league.slug]),
        )
    if kind in ENTRY_KINDS:
        return _entry_recipients(kind, object_id, stamp)
    if kind == Kind.RESULT_LINK_REVOKED:
        return _link_revoked_recipients(object_id)
    raise ValueError(f"unknown notification kind {kind!r}")


ENTRY_KINDS = (
    Kind.ENTRY_INVITED,
    Kind.JOIN_REQUESTED,
    Kind.JOIN_DECIDED,
    Kind.CLAIM_OPENED,
    Kind.CLAIM_DECIDED,
    Kind.INVITATION_DECLINED,
)


def _entry_recipients(kind: str, object_id: int, stamp: str) -> tuple[list, Message | None]:
    """Invitations, join requests and claims: who is told, and what."""
    if kind == Kind.INVITATION_DECLINED:
        from tournaments.models import Player

        league = League.objects.filter(pk=object_id).select_related("owner").first()
        player = Player.objects.filter(pk=stamp.partition(":")[0] or 0).first()
        if league is None or player is None:
            return [], None
        return _organizers(league), Message(
            kind,
            _("%(player)s declined to play in %(league)s")
            % {"player": player.name, "league": league.name},
            _(
                "%(player)s declined your invitation to %(league)s: their entry is removed. "
                "Seed the league without them, or enter another player."
            )
            % {"player": player.name, "league": league.name},
            reverse("tournaments:manage", args=[league.slug]),
        )
    if kind in (Kind.ENTRY_INVITED, Kind.JOIN_REQUESTED):
        entry = (
            Entry.objects.select_related("league__owner", "player__user")
            .filter(pk=object_id)
            .first()
        )
        wanted = Entry.State.INVITED if kind == Kind.ENTRY_INVITED else Entry.State.REQUESTED
        if entry is None or entry.state != wanted:
            return [], None  # answered (or withdrawn) before the task ran
        league, player = entry.league, entry.player
        if kind == Kind.ENTRY_INVITED:
            user = player.user
            return ([user] if user and user.is_active else []), Message(
                kind,
                _("You are invited to play in %(league)s") % {"league": league.name},
                _(
                    "The organizers of %(league)s entered you (%(player)s). You take part "
                    "once you accept: accept or decline on your leagues page."
                )
                % {"league": league.name, "player": player.name},
                reverse("tournaments:my-leagues"),
            )
        return _organizers(league), Message(
            kind,
            _("%(player)s asks to join %(league)s")
            % {"player": player.name, "league": league.name},
            _("%(player)s asks to join %(league)s. Approve or refuse on the league's players page.")
            % {"player": player.name, "league": league.name},
            reverse("tournaments:manage", args=[league.slug]),
        )
    if kind == Kind.JOIN_DECIDED:
        league = League.objects.filter(pk=object_id).first()
        user_id, _sep, decision = stamp.partition(":")
        user = get_user_model().objects.filter(pk=user_id or 0, is_active=True).first()
        if league is None or user is None:
            return [], None
        approved = decision == "approved"
        return [user], Message(
            kind,
            (
                _("You play in %(league)s")
                if approved
                else _("Your request to join %(league)s was refused")
            )
            % {"league": league.name},
            (
                _("An organizer approved your request: you play in %(league)s.")
                if approved
                else _("An organizer refused your request to join %(league)s.")
            )
            % {"league": league.name},
            reverse("tournaments:league", args=[league.slug]),
        )
    claim = PlayerClaim.objects.select_related("player__created_by", "user").filter(pk=object_id)
    claim = claim.first()
    if claim is None:
        return [], None
    player = claim.player
    if kind == Kind.CLAIM_OPENED:
        if claim.state != PlayerClaim.State.OPEN:
            return [], None
        from tournaments.permissions import may_vouch_for

        entries = list(player.entries.select_related("league__owner"))
        candidates = {u.pk: u for e in entries for u in _organizers(e.league)}
        if player.created_by is not None:
            candidates[player.created_by.pk] = player.created_by
        users = [u for u in candidates.values() if u.is_active and may_vouch_for(u, player)]
        league = next((e.league for e in entries if users), None)
        return users, Message(
            kind,
            _("%(user)s says they are %(player)s")
            % {"user": claim.user.get_username(), "player": player.name},
            _(
                "%(user)s signed up and says they are %(player)s, a player you entered without "
                "an account. Approve or refuse the claim on the league's players page."
            )
            % {"user": claim.user.get_username(), "player": player.name},
            reverse("tournaments:manage", args=[league.slug]) if league else "",
        )
    if claim.state == PlayerClaim.State.OPEN or not claim.user.is_active:
        return [], None
    approved = claim.state == PlayerClaim.State.APPROVED
    return [claim.user], Message(
        kind,
        (_("You are %(player)s now") if approved else _("Your claim to be %(player)s was refused"))
        % {"player": player.name},
        (
            _("An organizer confirmed that you are %(player)s: its games and results are yours.")
            if approved
            else _("An organizer refused your claim to be %(player)s.")
        )
        % {"player": player.name},
        reverse("tournaments:player", args=[player.slug])
        if approved
        else reverse("tournaments:my-leagues"),
    )


def _link_revoked_recipients(object_id: int) -> tuple[list, Message | None]:
    """A player's private result link stopped because an account became the player: the
    league's organizers hear of it (the manage page no longer lists it)."""
    link = (
        ResultLink.objects.select_related("entry__league__owner", "entry__player__user")
        .filter(pk=object_id, revoked_at__isnull=False)
        .first()
    )
    if link is None or link.entry.player.user is None:
        return [], None
    league, player = link.entry.league, link.entry.player
    values = {
        "player": player.name,
        "league": league.name,
        "user": player.user.get_username(),
    }
    return _organizers(league), Message(
        Kind.RESULT_LINK_REVOKED,
        _("The private result link of %(player)s in %(league)s stopped working") % values,
        _(
            "%(player)s has an account now (%(user)s), so the private result link you made "
            "for them in %(league)s no longer works: they report their games after logging "
            "in. If you printed the link on score sheets, they no longer report through it."
        )
        % values,
        reverse("tournaments:manage", args=[league.slug]),
    )


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
        try:
            with transaction.atomic():
                notification, made = Notification.objects.get_or_create(
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
            notification, made = Notification.objects.get(user=user, key=key), False
        created += made
        if email_on and user.email and notification.emailed_at is None and user.pk not in digest:
            emailed += _deliver(notification)
    return {"event": kind, "created": created, "emailed": emailed}


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


def languages_of(users: Iterable) -> dict[int, str]:
    """Each user's language (``AccountSettings``; the site's default without one)."""
    users = list(users)
    chosen = dict(
        AccountSettings.objects.filter(user__in=users)
        .exclude(language="")
        .values_list("user_id", "language")
    )
    return {u.pk: chosen.get(u.pk, settings.LANGUAGE_CODE) for u in users}


def language_of(user) -> str:
    return languages_of([user])[user.pk]


def language_set(user, language: str) -> None:
    """Store the account's language (one of ``settings.LANGUAGES``)."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    AccountSettings.objects.update_or_create(user=user, defaults={"language": language})


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
    """Periodic (``accounts.send_digests``, daily): each digest user's notices not mailed
    yet, whose kind they get by e-mail, in one mail in their language. The notices are
    claimed before the mail goes (as a single e-mail is), so a second run sends nothing
    twice; a failed send releases them for the next run."""
    sent = 0
    waiting = Notification.objects.filter(
        user__account_settings__daily_digest=True,
        emailed_at__isnull=True,
        email_claimed_at__isnull=True,
    ).select_related("user")
    by_user: dict[int, list[Notification]] = {}
    for note in waiting.order_by("created_at", "pk"):
        if note.user.email and note.user.is_active and switches(note.user, note.kind)[0]:
            by_user.setdefault(note.user_id, []).append(note)
    for notes in by_user.values():
        ids = [n.pk for n in notes]
        claimed = Notification.objects.filter(pk__in=ids, email_claimed_at__isnull=True).update(
            email_claimed_at=timezone.now()
        )
        if claimed != len(ids):  # another run took some: leave them to it
            continue
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
        try:
            EmailMessage(subject=subject, body=body, to=[user.email]).send(fail_silently=False)
        except Exception:
            Notification.objects.filter(pk__in=ids).update(email_claimed_at=None)
            raise
        Notification.objects.filter(pk__in=ids).update(emailed_at=timezone.now())
        sent += 1
    return {"digests": sent}


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


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, in_inbox=True, read_at__isnull=True).count()


def inbox(user, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user=user, in_inbox=True)[:limit])


def mark_read(user, ids: Iterable[int] | None = None) -> int:
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())
