"""Entries: a player in a league (invited, asked to join, accepted, withdrawn)."""

from __future__ import annotations

from django.db import models

from tournaments.models.leagues import League
from tournaments.models.players import Player


class EntryQuerySet(models.QuerySet):
    def playing(self) -> EntryQuerySet:
        """The entries that take part: accepted and not withdrawn (who is seeded, drawn,
        scheduled and ranked)."""
        return self.filter(state=Entry.State.ACCEPTED, withdrawn_at__isnull=True)

    def pending(self) -> EntryQuerySet:
        """Invitations not yet accepted and requests to join not yet approved."""
        return self.filter(
            state__in=(Entry.State.INVITED, Entry.State.REQUESTED), withdrawn_at__isnull=True
        )


class Entry(models.Model):
    """A player in a league, with the allied colours they hold in it.

    A player with an account takes part only once they have accepted: an organizer's entry
    of such a player is an invitation (``invited``) until they accept, a player's own
    request to join (``requested``) waits for an organizer. Only ``accepted`` entries are
    seeded, ranked and shown with results."""

    class State(models.TextChoices):
        ACCEPTED = "accepted", "accepted"
        INVITED = "invited", "invited, awaiting the player"
        REQUESTED = "requested", "asked to join, awaiting an organizer"
        WAITLISTED = "waitlisted", "on the waitlist"  # h-champ

    # indexed by entry_unique_player (league, player): no index of its own
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    preferred_colours = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACCEPTED)
    accepted_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(
        null=True, blank=True, help_text="checked in at the venue (open tournaments)"
    )
    paid_at = models.DateTimeField(null=True, blank=True, help_text="entry fee marked paid")
    created_at = models.DateTimeField(auto_now_add=True)
    # h-champ: waitlist, late entries, teams and categories (docs/championship.md)
    waitlisted_at = models.DateTimeField(
        null=True, blank=True, help_text="on the waitlist since (its order)"
    )
    joined_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a late entry (or one promoted late) plays from this round"
    )
    team = models.CharField(max_length=60, blank=True)
    category = models.CharField(max_length=30, blank=True, help_text="e.g. youth")
    qualified_from = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="a final event's entry carried over: the regional event it qualified in",
    )
    qualified_place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the place in the regional event's classification"
    )
    # end h-champ

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["league", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="entry_unique_player")
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"
