"""Standings: computed snapshots (tables) and the last failed recompute."""

from __future__ import annotations

from django.db import models

from tournaments.models.entries import Entry
from tournaments.models.leagues import League


class StandingsSnapshot(models.Model):
    """A computed table. The newest snapshot of a league (per stage) is what pages read."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="snapshots")
    stage = models.CharField(max_length=20, default="league")
    results_revision = models.PositiveIntegerField()
    provisional = models.BooleanField(default=True)
    games_played = models.PositiveIntegerField(default=0)
    games_total = models.PositiveIntegerField(default=0)
    precedence = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-computed_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "stage"], name="snapshot_one_per_stage")
        ]

    def __str__(self) -> str:
        return f"standings of {self.league} ({self.stage}, revision {self.results_revision})"


class StandingsRow(models.Model):
    # indexed by row_unique_entry (snapshot, entry): no index of its own
    snapshot = models.ForeignKey(
        StandingsSnapshot, on_delete=models.CASCADE, related_name="rows", db_index=False
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(help_text="row order (ties share a rank)")
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0)
    metrics = models.JSONField(default=dict)
    separated_by = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["snapshot", "position"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "entry"], name="row_unique_entry")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry_id}"


class StandingsFailure(models.Model):
    """The last standings recompute of a league failed: at which results revision, and why.
    The previous snapshot stays up (shown as stale with this reason); the next successful
    recompute deletes the row."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, related_name="standings_failure"
    )
    revision = models.PositiveIntegerField(help_text="the league's results revision that failed")
    error = models.TextField()
    failed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standings of {self.league} failed at revision {self.revision}"
