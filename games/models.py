"""Game records: a stored ``maedn-log/1`` log and the engine's verdict on it.

``games`` knows logs and replays, not leagues: a fixture in ``tournaments`` points here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameLog(models.Model):
    """One uploaded log, stored exactly as received (text) with its SHA-256 content hash.

    Only logs the engine accepted are stored here; an identical re-upload finds this row
    by its hash instead of creating a second one.
    """

    sha256 = models.CharField(max_length=64, unique=True)
    content = models.TextField(help_text="the log exactly as uploaded (UTF-8 JSON text)")
    size = models.PositiveIntegerField()
    board = models.PositiveSmallIntegerField()
    rules = models.JSONField(help_text="the log's rules: a preset name or an options object")
    players = models.JSONField(help_text="player name → colours held, as the engine read it")
    first = models.CharField(max_length=40)
    complete = models.BooleanField()
    events = models.PositiveIntegerField()
    placings = models.JSONField(default=list)
    winner = models.CharField(max_length=100, blank=True)
    pawns_home = models.JSONField(default=dict)
    captures = models.JSONField(default=dict)
    game_time = models.FloatField(
        null=True, blank=True, help_text="seconds, from the last event's 't'"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="uploaded_logs",
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-uploaded_at"]

    def __str__(self) -> str:
        state = "complete" if self.complete else "incomplete"
        return f"log {self.sha256[:10]} ({self.events} events, {state})"
