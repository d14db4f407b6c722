"""Leagues (and events): their format, rules, settings and status."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from tournaments.formats import FORMAT_CHOICES

User = settings.AUTH_USER_MODEL


class League(models.Model):
    class Status(models.TextChoices):
        """A league's status; the labels are what the pages show (``status_label``)."""

        DRAFT = "draft", pgettext_lazy("status", "draft")
        REGISTRATION = "registration", pgettext_lazy("status", "registration open")
        RUNNING = "running", pgettext_lazy("status", "running")
        PLAYOFFS = "playoffs", pgettext_lazy("status", "playoffs")
        FINISHED = "finished", pgettext_lazy("status", "finished")

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
    # h-champ: a championship day's registration (docs/championship.md)
    capacity = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="open tournaments: how many may play; further entries go on the waitlist",
    )
    checkin_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="who is not checked in by then loses their place to the waitlist",
    )
    team_best = models.PositiveSmallIntegerField(
        default=0, help_text="team classification: the best N members' points count (0: all)"
    )
    # h-champ: a series with qualifiers (a regional event sends its best N to a final event)
    qualifies_for = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="qualifier_events",
        help_text="a regional event: the final event its best players qualify for",
    )
    qualifier_places = models.PositiveSmallIntegerField(
        default=0, help_text="a regional event: how many of its best qualify for the final"
    )
    # end h-champ

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


class LeagueRevision(models.Model):
    """The league's **content revision**: raised by the database, at the commit of every
    transaction that changed a row the league's pages show (the league, its entries,
    players, games, seats, results, DRRs, series, standings, the logs' figures and
    analyses, user names; migration 0017's triggers, PostgreSQL only), so a rendering
    stored under it is exact (docs/pages.md, "Stored renderings"). A row of its own, never
    locked by a service: the raise is the last lock a writing transaction takes, so it
    adds no lock-order cycle to the services' (game, then league)."""

    league = models.OneToOneField(
        League, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    n = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.league_id}: revision {self.n}"


class PlayersRevision(models.Model):
    """The **players' revision**, for the pages that list players whatever their leagues
    (the search, the API's list of players) and the site-wide tables (ratings, rankings):
    raised by the database at the commit of every transaction that made, changed or
    deleted a player (migration 0019's trigger, PostgreSQL only). Kept as one counter per
    database session (``backend``: ``pg_backend_pid()``), so two committing transactions
    never wait for each other's row (no lock-order cycle with the leagues' revisions);
    the revision is the **sum** of the counters: every raising commit adds to it, and a
    later snapshot sees every commit an earlier one saw, so two equal sums are the same
    players (docs/pages.md, "Stored renderings"). The counters of ended sessions are
    folded into row 0 (``services.revisions.revisions_fold``, a periodic task): the sum
    unchanged, the table as small as the live sessions."""

    backend = models.IntegerField(unique=True)
    n = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"session {self.backend}: {self.n} raises"


class SiteRevision(models.Model):
    """The **site's revision**: raised by the database at the commit of every transaction
    that raised any league's revision (``LeagueRevision``) or made or deleted a league
    (migration 0020's triggers, PostgreSQL only), for the stamps of the site-wide pages
    (home, search, ratings, rankings, the API's lists of leagues and games): one sum, not a
    digest of every league's revision. One counter per database session, the revision
    their sum, as ``PlayersRevision``; the counters of ended sessions are folded into row 0
    (``services.revisions.revisions_fold``)."""

    backend = models.IntegerField(unique=True)
    n = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"session {self.backend}: {self.n} raises"
