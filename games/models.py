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
    seat_faces = models.JSONField(
        help_text="board seat (0-based) → how often each face 1–6 came up in its rolls"
    )
    seat_stats = models.JSONField(
        help_text="board seat (0-based) → its moves, captures made, pawns captured, huffs"
    )
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
        indexes = [models.Index(fields=["-uploaded_at"], name="gamelog_uploaded_at")]

    def __str__(self) -> str:
        state = "complete" if self.complete else "incomplete"
        return f"log {self.sha256[:10]} ({self.events} events, {state})"


class GameAnalysis(models.Model):
    """The move analysis of one stored log (``games.engine.analysis.analyse``): keyed by
    the log's content hash, the analysis format and the rollouts and seed it ran with (both
    0 since ``maedn-analysis/2``, which has none), so asking twice for the same analysis
    finds one row (``games/analysis.py``).

    ``status`` goes queued → running → done (``data`` holds the analysis dict as the engine
    returned it) or failed (``error`` says why), or queued → skipped when its log stopped
    counting (a correction replaced it) before a worker reached it. ``claim`` is the
    running worker's token: only the worker that claimed a row may store its result.
    ``queued_at`` is when its task message was last sent (``None``: not sent yet — the
    broker was down, or its organizer had the most analyses queued already); the sender
    claims it with a conditional UPDATE, so a row has one message in the queue at a time
    (``tournaments/services/analyses.py``).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"
        SKIPPED = "skipped", "skipped"

    log = models.ForeignKey(GameLog, on_delete=models.CASCADE, related_name="analyses")
    sha256 = models.CharField(max_length=64, help_text="the log's SHA-256 (GameLog.sha256)")
    format = models.CharField(max_length=40, help_text="the analysis format, e.g. maedn-analysis/1")
    rollouts = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    claim = models.CharField(max_length=32, blank=True)
    data = models.JSONField(null=True, blank=True)
    seats = models.JSONField(
        default=dict, blank=True, help_text="board seat (0-based) → the log's player there"
    )
    summary = models.JSONField(
        default=dict, blank=True, help_text="data's per-player summary (read without data)"
    )
    error = models.TextField(blank=True)
    seconds = models.FloatField(null=True, blank=True, help_text="wall time of the analysis")
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="when its task was last sent (empty: not sent yet)"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["sha256", "format", "rollouts", "seed"], name="one_analysis_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"analysis of {self.sha256[:10]} ({self.format}, {self.status})"
