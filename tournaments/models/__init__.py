"""Leagues, players, entries, DRR cycles, fixtures (scheduled games), results, playoff
series and standings snapshots.

Business rules live in ``tournaments/services/``; these classes hold data and the database
constraints that keep it consistent under concurrent writes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.algorithms.names import name_keys
from tournaments.formats import FORMAT_CHOICES

User = settings.AUTH_USER_MODEL


class Player(models.Model):
    """A person. Linked to a user account when they have one; leagues may list players
    without accounts."""

    user = models.OneToOneField(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    name = models.CharField(max_length=100, unique=True)
    #: the name's confusable skeletons (``tournaments.algorithms.names.name_keys``: as it
    #: looks, and case-folded), kept by ``save``: names that look alike share a key (issue 32)
    name_key = models.CharField(max_length=400, db_index=True, editable=False, default="")
    name_key_folded = models.CharField(max_length=400, db_index=True, editable=False, default="")
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
        help_text="the organizer (or staff member) who created this player without an account",
    )
    shared = models.BooleanField(
        default=False,
        help_text="other organizers may enter this player without an account (set by the "
        "creator or staff; otherwise only the creator may)",
    )
    calendar_version = models.PositiveIntegerField(
        default=0,
        help_text="part of the signed calendar link of My games; raising it (a new link) "
        "stops the old one",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key, self.name_key_folded = name_keys(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key", "name_key_folded"}
        super().save(*args, **kwargs)


class League(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        REGISTRATION = "registration", "registration"
        RUNNING = "running", "running"
        PLAYOFFS = "playoffs", "playoffs"
        FINISHED = "finished", "finished"

    class EventKind(models.TextChoices):
        LEAGUE = "league", "league (DRRs)"
        TRIPLE_THREAT = "triple-threat", "triple-threat event (a sequence of games)"
        CHALLENGERS = "challengers", "double-threat Challengers (game 0, 1, 2, …)"
        GRAND_PRIX = "grand-prix", "Grand Prix"
        OPEN = "open", "open tournament (tables drawn each round)"

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
    event_kind = models.CharField(
        max_length=20,
        choices=EventKind.choices,
        default=EventKind.LEAGUE,
        help_text="how the games are made: DRRs, a triple-threat or Challengers sequence, "
        "a Grand Prix, an open tournament",
    )
    game_formats = models.JSONField(
        default=list,
        blank=True,
        help_text='triple-threat / Challengers events: each game\'s format, e.g. ["3T", "GP", '
        '"3T+"] (Challengers: game 0 first)',
    )
    games_planned = models.PositiveSmallIntegerField(
        default=0, help_text="Grand Prix: the set number of games; open: preliminary rounds"
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="open tournaments: the time limit of a game"
    )
    final_table_size = models.PositiveSmallIntegerField(
        default=4, help_text="open tournaments: how many play the final table (0: none)"
    )
    game0_counts = models.BooleanField(
        default=False,
        help_text="Challengers: game 0 counts in the table (default: it only decides who "
        "starts game 1)",
    )
    draw_seed = models.BigIntegerField(
        null=True, blank=True, help_text="RNG seed of the open draw and of the platform's dice"
    )
    date_plan = models.JSONField(
        default=dict,
        blank=True,
        help_text="the rhythm the games outside DRRs were dated in ({every_days, due_hours}); "
        "games made later (an open round, a series game) continue it",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(default=True)
    checkin_opened_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="check-in open since (only the checked-in are drawn)",
    )
    registration_open = models.BooleanField(
        default=False, help_text="anyone signed in may ask to join (else by invitation only)"
    )
    results_revision = models.PositiveIntegerField(
        default=0, help_text="bumped whenever a counting result changes; standings follow it"
    )
    standings_claimed_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="a worker is recomputing the standings until then (one at a time per league; "
        "a burst of results coalesces into its next run)",
    )
    ranking_level = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=[(n, str(n)) for n in (1, 2, 3, 4)],
        help_text="3T World Rankings level 1–4 (triple-threat only); empty: not ranked",
    )
    world_championship = models.BooleanField(default=False)
    major = models.BooleanField(default=False)
    rated = models.BooleanField(
        default=False,
        help_text="sanctioned by a rating officer: its games move ratings and world rankings "
        "(docs/ratings.md; RATED_LEAGUES=all rates every league)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("sanction_league", "may sanction leagues as rated (rating officer)")]

    def __str__(self) -> str:
        return self.name

    @property
    def rules_spec(self) -> str | dict:
        if not self.rules_overrides:
            return self.rules_preset
        return {"preset": self.rules_preset, **self.rules_overrides}


class LeagueRatingDecision(models.Model):
    """A league's request for a rating and the rating officer's decision, in the open: who
    asked, who decided, when and why (docs/ratings.md, "Rated leagues"). A withdrawal of a
    rated league is a decision without a request."""

    class State(models.TextChoices):
        REQUESTED = "requested", "requested"
        APPROVED = "approved", "approved"
        REFUSED = "refused", "refused"
        REVOKED = "revoked", "revoked"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_decisions")
    state = models.CharField(max_length=10, choices=State.choices, default=State.REQUESTED)
    requested_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True, help_text="the organizer's request")
    decided_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league"],
                condition=models.Q(state="requested"),
                name="one_open_rating_request_per_league",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} rating: {self.state}"


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

    objects = EntryQuerySet.as_manager()

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
        from games.engine.board import DEFAULT_COLOURS

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

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="open_round_unique_number")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.league}"


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


# --- ratings (docs/ratings.md) --------------------------------------------------------------


class RatingState(models.Model):
    """The one row that serialises rating updates (the ratings writer's lock): the task locks
    it, replays from the earliest pending game and records how far it got.
    ``needs_recompute`` is an operator's switch: the next update rebuilds everything."""

    applied_through = models.PositiveBigIntegerField(
        default=0, help_text="highest rating sequence applied"
    )
    needs_recompute = models.BooleanField(default=False)
    games_rated = models.PositiveIntegerField(default=0)
    recomputed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"ratings through sequence {self.applied_through}"


class RatingGame(models.Model):
    """A fixture whose counted result the ratings know about. The id is the **rating
    sequence**: given when the fixture's result first counts, kept through corrections, so
    games are always rated in the same order. ``places`` is ``[[player_id, place], …]`` in
    seat order, or null when the result is not rated (a forfeit, no information)."""

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="rating_game")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="+")
    places = models.JSONField(null=True, blank=True)
    skip_reason = models.CharField(max_length=100, blank=True)
    applied = models.BooleanField(default=False)
    played_at = models.DateTimeField(help_text="when the result first counted")
    revision = models.PositiveIntegerField(
        default=0,
        help_text="raised by every change of the places; the ratings task marks a game applied "
        "only at the revision it rated (a correction meanwhile leaves it pending)",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["applied"], name="ratinggame_applied")]

    def __str__(self) -> str:
        return f"rated game #{self.pk} (fixture {self.fixture_id})"

    @property
    def sequence(self) -> int:
        return self.pk


class PlayerRating(models.Model):
    """A player's current rating: openskill mu and sigma, and the number shown."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(help_text="round(1000 + 40 × (mu − 3 sigma))")
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-display", "player__name"]
        indexes = [models.Index(fields=["-display"], name="playerrating_display")]

    def __str__(self) -> str:
        return f"{self.player}: {self.display}"


class RatingChange(models.Model):
    """One player's rating change in one rated game (the history behind the chart)."""

    # indexed by ratingchange_player_seq (player, sequence) and ratingchange_unique_player
    # (game, player): no index of their own
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    game = models.ForeignKey(
        RatingGame, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveBigIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    win_probability = models.FloatField(help_text="the forecast before the game")
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["player", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingchange_unique_player")
        ]
        indexes = [models.Index(fields=["player", "sequence"], name="ratingchange_player_seq")]

    def __str__(self) -> str:
        return f"{self.player} {self.display_before}→{self.display_after} (#{self.sequence})"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before


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


class MailSent(models.Model):
    """One mail the platform sent because someone asked (an invitation, an address
    confirmation): what the per-sender and per-recipient limits count
    (``tournaments/services/mail_limits.py``)."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", "invitation"
        CONFIRMATION = "confirmation", "address confirmation"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    sender = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recipient = models.CharField(max_length=254, help_text="the address, lower case")
    sent_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-sent_at"]
        indexes = [
            models.Index(fields=["sender", "sent_at"], name="mailsent_sender"),
            models.Index(fields=["recipient", "sent_at"], name="mailsent_recipient"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient} at {self.sent_at:%Y-%m-%d %H:%M}"


class ResultLink(models.Model):
    """An entry's private result link: whoever holds it acts as that entry's player in
    that league's games, and only there (upload a log, confirm, dispute: the same services
    and permissions, ``tournaments.actors.LinkHolder``). Made for players without an
    account, whose organizer hands it out (or prints it on the score sheet).

    The token is never stored: it is an HMAC of ``nonce`` under the site's SECRET_KEY
    (like Django's password-reset tokens), so the organizer's page can show it again, while
    the database alone (a backup, a leaked dump) gives no working link. ``token_hash`` (its
    SHA-256) finds the link. Rotating revokes the old link and makes a new one; at most
    one live link per entry (a partial unique index)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="result_links")
    nonce = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["entry", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(revoked_at__isnull=True),
                name="resultlink_one_live_per_entry",
            )
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"result link of {self.entry_id} ({state})"
