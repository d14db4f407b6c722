"""Notifications: the kinds of event a user is told of, the message of one event to one
user (the in-site inbox, and the record that makes each e-mail go out once) and each
user's switches per kind.

The tables are the ones the accounts app made (``accounts_notification``,
``accounts_notificationpreference``): the models moved here without copying a row
(migrations ``accounts 0008`` and ``notifications 0001``, state only)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    RESULT_AWAITING = "result_awaiting", _("a result awaits your confirmation")
    DISPUTE_OPENED = "dispute_opened", _("a result was disputed (organizers)")
    DECISION_MADE = "decision_made", _("an organizer decided a result of your game")
    SCHEDULE_CHANGED = (
        "schedule_changed",
        _("a double round-robin was seeded or the schedule changed"),
    )
    DEADLINE_NEAR = "deadline_near", _("a game of yours is due within 48 hours")
    GAME_OVERDUE = "game_overdue", _("a game is overdue")
    STANDINGS_FAILED = (
        "standings_failed",
        _("a league's standings could not be computed (organizers)"),
    )
    ENTRY_INVITED = "entry_invited", _("an organizer entered you in a league (an invitation)")
    JOIN_REQUESTED = "join_requested", _("a player asks to join your league (organizers)")
    JOIN_DECIDED = "join_decided", _("your request to join a league was decided")
    CLAIM_OPENED = "claim_opened", _("an account claims a player you created (organizers)")
    CLAIM_DECIDED = "claim_decided", _("your claim to be a player was decided")
    RESULT_LINK_REVOKED = (
        "result_link_revoked",
        _("a player's private result link stopped: they have an account now (organizers)"),
    )
    INVITATION_DECLINED = (
        "invitation_declined",
        _("a player declined to play in your league (organizers)"),
    )


class Notification(models.Model):
    """One message to one user about one event. ``key`` names the event; the unique
    (user, key) pair is what makes a retried task send nothing twice."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    key = models.CharField(max_length=200, help_text="the event: kind, object and stamp")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    url = models.CharField(max_length=500, blank=True)
    in_inbox = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    email_claimed_at = models.DateTimeField(
        null=True, blank=True, help_text="set before the e-mail is handed to the backend"
    )
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "accounts_notification"  # made by the accounts app, which held it first
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_event")
        ]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id}: {self.subject}"


class NotificationPreference(models.Model):
    """A user's switch for one kind (no row: both on)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    email = models.BooleanField(default=True)
    inbox = models.BooleanField(default=True)

    class Meta:
        db_table = "accounts_notificationpreference"  # as made by the accounts app
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="preference_one_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: e-mail {self.email}, inbox {self.inbox}"
