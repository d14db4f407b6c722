"""Consent: invitations to a league, claims of a player created without an account,
confirmed e-mail addresses."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.entries import Entry
from tournaments.models.leagues import League
from tournaments.models.players import Player

User = settings.AUTH_USER_MODEL


class Invitation(models.Model):
    """An organizer's invitation to a league, sent by e-mail or handed out as a signed link
    (``django.core.signing`` of its id). Accepting it links the account to the invited
    entry's player (a player created without an account), or enters the account's own
    player (created when it has none)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    name = models.CharField(max_length=100, blank=True, help_text="player name to create")
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "-created_at"]

    def __str__(self) -> str:
        return f"invitation to {self.league} ({self.email or self.name or 'link'})"

    @property
    def is_open(self) -> bool:
        return self.accepted_at is None and self.revoked_at is None


class PlayerClaim(models.Model):
    """A request by an account to become a player created without one (their name was
    taken when they signed up); the organizer who created that player, or staff, decides
    (``permissions.may_vouch_for``)."""

    class State(models.TextChoices):
        OPEN = "open", "waiting for an organizer"
        APPROVED = "approved", "approved"
        REFUSED = "refused", "refused"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="player_claims")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(state="open"),
                name="claim_one_open_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"


class ConfirmedEmail(models.Model):
    """An account's e-mail address, confirmed through a signed link (the setting
    ``ORGANIZERS_MUST_BE_VERIFIED`` restricts organizing to such accounts)."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="confirmed_email")
    email = models.EmailField()
    confirmed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.email} of {self.user}"
