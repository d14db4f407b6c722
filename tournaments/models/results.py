"""Results: the versions of a fixture's result, refused submissions, tie-break rolls."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy

from tournaments.models.entries import Entry
from tournaments.models.fixtures import Fixture
from tournaments.models.leagues import League

User = settings.AUTH_USER_MODEL


class Result(models.Model):
    """One version of a fixture's result. Every change is a new row (who, when, why); at
    most one version per fixture is confirmed and at most one is open (awaiting
    confirmation or disputed) — database constraints, so concurrent submissions cannot
    both win."""

    class Source(models.TextChoices):
        LOG = "log", "validated game log"
        REPORT = "report", "reported by hand (unverified)"
        ORGANIZER = "organizer", "entered by an organizer"
        FORFEIT = "forfeit", "forfeit"

    class State(models.TextChoices):
        PENDING = "pending", pgettext_lazy("status", "awaiting confirmation")
        DISPUTED = "disputed", pgettext_lazy("status", "disputed")
        CONFIRMED = "confirmed", pgettext_lazy("status", "confirmed")
        SUPERSEDED = "superseded", pgettext_lazy("status", "superseded")
        REJECTED = "rejected", pgettext_lazy("status", "rejected by the organizer")
        VOIDED = "voided", pgettext_lazy("status", "voided")

    OPEN_STATES = (State.PENDING, State.DISPUTED)

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="results")
    source = models.CharField(max_length=10, choices=Source.choices)
    state = models.CharField(max_length=10, choices=State.choices)
    game_log = models.ForeignKey(
        "games.GameLog", null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    placings = models.JSONField(default=list, help_text="entry ids in finishing order")
    colour_places = models.JSONField(
        default=list, help_text="entry id owning the colour at each finishing place"
    )
    finished_colours = models.JSONField(
        default=list, blank=True, help_text="the colours in finishing order (from the log)"
    )
    both_finished = models.JSONField(
        default=list, help_text="entry ids in the order they finished all their colours"
    )
    counted_pawns = models.JSONField(default=dict, help_text="entry id → counted pawns")
    completed_colours = models.JSONField(default=dict, help_text="entry id → colours finished")
    captures = models.JSONField(default=dict, help_text="entry id → captures made")
    count_points = models.JSONField(default=dict, blank=True)
    game_time = models.FloatField(null=True, blank=True)
    forfeit_loser = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    verified = models.BooleanField(default=False, help_text="derived from a validated log")
    submitted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_via = models.ForeignKey(
        "ResultLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="sent through this entry's private result link (no account)",
    )
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_via = models.ForeignKey(
        "ResultLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="confirmed or disputed through this entry's private result link",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ["fixture", "-created_at"]
        indexes = [
            # the home page's latest results: newest counted first, read from the index
            models.Index(
                fields=["-decided_at", "-created_at"],
                name="result_confirmed_decided",
                condition=Q(state="confirmed"),
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture"],
                condition=Q(state="confirmed"),
                name="result_one_confirmed_per_fixture",
            ),
            models.UniqueConstraint(
                fields=["fixture"],
                condition=Q(state__in=["pending", "disputed"]),
                name="result_one_open_per_fixture",
            ),
        ]

    def __str__(self) -> str:
        return f"result of {self.fixture_id} ({self.state})"


class RejectedSubmission(models.Model):
    """A log (or report) that was refused: kept so players and organizers see who tried
    what, when, and why it was rejected. The log itself is not stored as a game log."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="rejections")
    submitted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_via = models.ForeignKey(
        "ResultLink", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size = models.PositiveIntegerField(default=0)
    event = models.IntegerField(null=True, blank=True, help_text="first offending event")
    error = models.TextField(help_text="the refusal in English")
    error_code = models.CharField(
        max_length=40, blank=True, help_text="the refusal's code (blank: uncoded, or older)"
    )
    error_params = models.JSONField(
        default=dict, blank=True, help_text="the refusal's parameters (nested coded errors)"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"rejected submission for game {self.fixture_id}"


class TieBreakRoll(models.Model):
    """A die roll an organizer recorded to break a tie: who rolled what, when. For the
    standings (``fixture`` empty) or for a remaining tie on count points in one game."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tie_break_rolls")
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="tie_break_rolls"
    )
    rounds = models.JSONField(
        help_text='roll rounds, entry id → roll: [{"3": 5, "7": 5}, {"3": 2, "7": 6}]'
    )
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "recorded_at", "pk"]

    def __str__(self) -> str:
        return f"tie-break roll {self.pk} in {self.league}"

    @property
    def entry_ids(self) -> list[int]:
        return [int(k) for k in (self.rounds[0] if self.rounds else {})]
