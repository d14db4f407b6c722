"""The games of a league: DRR cycles and their seeding, playoff series, open
tournaments' drawn rounds, fixtures (scheduled games) and their seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from games.engine.board import DEFAULT_COLOURS
from tournaments.models.entries import Entry
from tournaments.models.leagues import League

User = settings.AUTH_USER_MODEL


class Cycle(models.Model):
    """One double round-robin (DRR) of a league: its seeding by die roll and its games."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="cycles")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(null=True, blank=True, help_text="RNG seed of drawn rolls")
    rolls = models.JSONField(default=list, help_text="the seeding die rolls, round by round")
    late_order = models.JSONField(
        default=list, blank=True, help_text="three players: the organizer's order of G4–G6"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="cycle_unique_number")
        ]

    def __str__(self) -> str:
        return f"DRR {self.number} of {self.league}"


class CycleSeed(models.Model):
    cycle = models.ForeignKey(Cycle, on_delete=models.CASCADE, related_name="seeds")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="cycle_seeds")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["cycle", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cycle", "number"], name="seed_unique_number"),
            models.UniqueConstraint(fields=["cycle", "entry"], name="seed_unique_entry"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} in {self.cycle}"


class Series(models.Model):
    """A playoff series, 'first to N wins', with a head start for the higher seed."""

    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("status", "waiting for players")
        PLAYING = "playing", pgettext_lazy("status", "playing")
        DECIDED = "decided", pgettext_lazy("status", "decided")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="series")
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    first_to = models.PositiveSmallIntegerField()
    higher = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lower = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    higher_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    lower_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    head_start = models.BooleanField(default=True)
    head_start_rule = models.BooleanField(
        default=True, help_text="apply the 1–0 head start rule in this round"
    )
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    next_series = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="feeders"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)

    class Meta:
        ordering = ["league", "round", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["league", "round", "slot"], name="series_unique_slot")
        ]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return f"{self.name} ({self.league})"


class OpenRound(models.Model):
    """One drawn round of an open tournament (or its final table): the seed it was drawn
    with, so the same seed, players and history reproduce it."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="open_rounds")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    is_final = models.BooleanField(default=False)
    drawn_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # h-champ: the round clock the desk starts, pauses and resumes (docs/championship.md):
    # running until ``clock_ends_at``; paused with ``clock_left_seconds`` left; neither:
    # not started. ``clock_changed_at``: the projector's ETag follows it.
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_left_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="open_round_unique_number")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.league}"


class Fixture(models.Model):
    """A scheduled game: who sits at the board in which order, the colours each holds, and
    the colour that starts. Results are versions in ``Result``."""

    class Status(models.TextChoices):
        """A game's status; the labels are what the pages show (``status_label``)."""

        SCHEDULED = "scheduled", pgettext_lazy("status", "scheduled")
        SUBMITTED = "submitted", pgettext_lazy("status", "awaiting confirmation")
        CONFIRMED = "confirmed", pgettext_lazy("status", "confirmed")
        DISPUTED = "disputed", pgettext_lazy("status", "disputed")
        FORFEITED = "forfeited", pgettext_lazy("status", "forfeited")
        CANCELLED = "cancelled", pgettext_lazy("status", "cancelled")

    #: the result counts: played and confirmed, or forfeited
    COUNTED_STATUSES = (Status.CONFIRMED, Status.FORFEITED)
    #: nothing is left to play: counted, or cancelled
    CLOSED_STATUSES = (Status.CONFIRMED, Status.FORFEITED, Status.CANCELLED)

    class Stage(models.TextChoices):
        REGULAR = "regular", "regular"
        FINAL = "final", "final table"

    class CancelReason(models.TextChoices):
        DECIDED = "decided", "cancelled: the winner is certain"
        SERIES = "series", "cancelled: the series is decided"

    # indexed by the (league, status) index: no index of its own
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="fixtures", db_index=False
    )
    cycle = models.ForeignKey(
        Cycle, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    round = models.PositiveSmallIntegerField(help_text="round within the cycle (1-based)")
    number = models.PositiveSmallIntegerField(help_text="game number within the cycle/series")
    label = models.CharField(max_length=20, blank=True, help_text='e.g. "G4"')
    starting_colour = models.CharField(
        max_length=20, blank=True, help_text="empty while an earlier game decides it"
    )
    format = models.CharField(
        max_length=8,
        blank=True,
        help_text="the game's own format in a mixed event (else the league's)",
    )
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.REGULAR)
    start_basis = models.CharField(
        max_length=30,
        blank=True,
        help_text="die-roll, clinching-colour, first-finisher-rearguard (empty: the league's)",
    )
    start_depends_on = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="start_dependents",
        help_text="the earlier game whose result decides this game's starting colour",
    )
    start_reason = models.CharField(max_length=200, blank=True)
    start_rolls = models.JSONField(
        default=list, blank=True, help_text="starting-colour die rolls, round by round"
    )
    cancel_reason = models.CharField(
        max_length=20, choices=CancelReason.choices, blank=True, help_text="why it was cancelled"
    )
    scheduled_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="the result is due by then (organizers' deadline)"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    referee_called_at = models.DateTimeField(
        null=True, blank=True, help_text="a player at the table called the referee"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league_id", "cycle_id", "series_id", "round", "number"]
        indexes = [models.Index(fields=["league", "status"])]

    def __str__(self) -> str:
        names = " vs ".join(seat.entry.player.name for seat in self.seats.all())
        return f"{self.label or self.number}: {names}"

    @property
    def game_format(self) -> str:
        return self.format or self.league.format

    @property
    def unused_colours(self) -> list[str]:
        """The board's colours nobody holds in this game (a two-player GP on board 6, a
        table of three): a log lists them under ``unused`` (game-log.md)."""

        held = {c for seat in self.seats.all() for c in seat.colours}
        return [c for c in DEFAULT_COLOURS[self.league.board] if c not in held]

    @property
    def start_label(self) -> str:
        """The starting colour, or "decided by game N" while an earlier game decides it."""
        if self.starting_colour:
            return self.starting_colour
        if self.start_depends_on_id:
            return f"decided by game {self.start_depends_on.number}"
        return ""


class Seat(models.Model):
    """A player at a fixture's board: their at-board position (0 = first mentioned) and the
    colours they hold."""

    # indexed by seat_unique_position (fixture, position): no index of its own
    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="seats", db_index=False
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    colours = models.JSONField()

    class Meta:
        ordering = ["fixture", "position"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["fixture", "entry"], name="seat_unique_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} with {'+'.join(self.colours)}"
