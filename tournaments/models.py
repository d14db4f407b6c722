"""Leagues, players, entries, DRR cycles, fixtures (scheduled games), results, playoff
series and standings snapshots.

Business rules live in ``tournaments/services/``; these classes hold data and the database
constraints that keep it consistent under concurrent writes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.formats import FORMAT_CHOICES

User = settings.AUTH_USER_MODEL


class Player(models.Model):
    """A person. Linked to a user account when they have one; leagues may list players
    without accounts."""

    user = models.OneToOneField(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    preferred_colours = models.JSONField(
        default=list, blank=True, help_text='preferred allied pair, e.g. ["green", "red"]'
    )
    created_by = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the organizer who created this player without an account",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        REGISTRATION = "registration", "registration"
        RUNNING = "running", "running"
        PLAYOFFS = "playoffs", "playoffs"
        FINISHED = "finished", "finished"

    class ClashPolicy(models.TextChoices):
        FIRST_MENTIONED_KEEPS = "first-mentioned-keeps", "first mentioned player keeps theirs"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    owner = models.ForeignKey(User, on_delete=models.PROTECT, related_name="owned_leagues")
    organizers = models.ManyToManyField(User, blank=True, related_name="organized_leagues")
    format = models.CharField(max_length=8, choices=FORMAT_CHOICES)
    board = models.PositiveSmallIntegerField(choices=[(4, "4 colours"), (6, "6 colours")])
    rules_preset = models.CharField(max_length=20)
    rules_overrides = models.JSONField(default=dict, blank=True)
    drr_count = models.PositiveSmallIntegerField(default=1)
    playoffs = models.JSONField(
        default=dict,
        blank=True,
        help_text='{"kind": "xleague"} or {"kind": "bracket", "seeds": 8, "first_to": [2, 3, 4]}',
    )
    precedence = models.JSONField(default=list, help_text="tie-break metric keys, in order")
    points_scheme = models.JSONField(default=list, blank=True)
    clash_policy = models.CharField(
        max_length=30, choices=ClashPolicy.choices, default=ClashPolicy.FIRST_MENTIONED_KEEPS
    )
    confirmation_required = models.BooleanField(
        default=True, help_text="a validated log waits for the opponent's confirmation"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(default=True)
    registration_open = models.BooleanField(
        default=False, help_text="anyone signed in may ask to join (else by invitation only)"
    )
    results_revision = models.PositiveIntegerField(
        default=0, help_text="bumped whenever a counting result changes; standings follow it"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rules_spec(self) -> str | dict:
        if not self.rules_overrides:
            return self.rules_preset
        return {"preset": self.rules_preset, **self.rules_overrides}


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

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    preferred_colours = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACCEPTED)
    accepted_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="entry_unique_player")
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


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
        WAITING = "waiting", "waiting for players"
        PLAYING = "playing", "playing"
        DECIDED = "decided", "decided"

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


class Fixture(models.Model):
    """A scheduled game: who sits at the board in which order, the colours each holds, and
    the colour that starts. Results are versions in ``Result``."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "scheduled"
        SUBMITTED = "submitted", "submitted"
        CONFIRMED = "confirmed", "confirmed"
        DISPUTED = "disputed", "disputed"
        FORFEITED = "forfeited", "forfeited"
        CANCELLED = "cancelled", "cancelled"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fixtures")
    cycle = models.ForeignKey(
        Cycle, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    round = models.PositiveSmallIntegerField(help_text="round within the cycle (1-based)")
    number = models.PositiveSmallIntegerField(help_text="game number within the cycle/series")
    label = models.CharField(max_length=20, blank=True, help_text='e.g. "G4"')
    starting_colour = models.CharField(max_length=20)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="the result is due by then (organizers' deadline)"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league_id", "cycle_id", "series_id", "round", "number"]
        indexes = [models.Index(fields=["league", "status"])]

    def __str__(self) -> str:
        names = " vs ".join(seat.entry.player.name for seat in self.seats.all())
        return f"{self.label or self.number}: {names}"


class Seat(models.Model):
    """A player at a fixture's board: their at-board position (0 = first mentioned) and the
    colours they hold."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="seats")
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
        PENDING = "pending", "awaiting confirmation"
        DISPUTED = "disputed", "disputed"
        CONFIRMED = "confirmed", "confirmed"
        SUPERSEDED = "superseded", "superseded"
        REJECTED = "rejected", "rejected by the organizer"
        VOIDED = "voided", "voided"

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
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ["fixture", "-created_at"]
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
    created_at = models.DateTimeField(auto_now_add=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size = models.PositiveIntegerField(default=0)
    event = models.IntegerField(null=True, blank=True, help_text="first offending event")
    error = models.TextField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"rejected submission for game {self.fixture_id}"


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
    snapshot = models.ForeignKey(StandingsSnapshot, on_delete=models.CASCADE, related_name="rows")
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
    taken when they signed up); an organizer of a league that player is in decides."""

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
