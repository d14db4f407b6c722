"""Ratings (docs/ratings.md): a league's rating decisions, the rating writer's state,
rated games, players' ratings and their changes.

Moved from ``tournaments`` with their tables: each keeps its ``tournaments_…`` table name
(``db_table``; migrations tournaments 0013 and ratings 0001 move them in the state only)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.fixtures import Fixture
from tournaments.models.leagues import League
from tournaments.models.players import Player
from tournaments.models.results import Result

User = settings.AUTH_USER_MODEL


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
        db_table = "tournaments_leagueratingdecision"
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

    class Meta:
        db_table = "tournaments_ratingstate"

    def __str__(self) -> str:
        return f"ratings through sequence {self.applied_through}"


class RatingClaim(models.Model):
    """The ratings update's claim (one row, issue 31): until when a worker holds the update.
    A result that counts reads it (``FOR SHARE``, in the result's transaction) and sends no
    task while it is held: the holder lets go with an UPDATE of this row, which waits for
    that transaction, and checks for pending games once more after (docs/ratings.md, "A
    burst of results"). Apart from ``RatingState``, whose row the writer holds locked for
    its whole run: a result must not wait for the writer."""

    claimed_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings update claimed until {self.claimed_until}"


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
        db_table = "tournaments_ratinggame"
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
        db_table = "tournaments_playerrating"
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
        db_table = "tournaments_ratingchange"
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
