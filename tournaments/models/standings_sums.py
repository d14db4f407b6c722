"""Standings sums kept by the counting transaction (issue 31, docs/results.md "Sums kept by
the counting transaction"): for a league, what each counted result adds to each entry's
sums, and the sums themselves, so that a recompute reads a row per entry instead of every
seat of every counted game.

Written only by ``tournaments/services/standings_sums.py`` (a counted result's change, under
the tally's row lock, and the full rebuild); read by
``tournaments/selectors/standings_inputs.py: tallied_sums``, which compares them with the
league's counted results before trusting them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models

from tournaments.models.entries import Entry
from tournaments.models.fixtures import Fixture
from tournaments.models.leagues import League


class ExactNumberField(models.Field):
    """A PostgreSQL ``numeric`` without precision or scale: holds any sum of whole numbers
    and of game times (doubles, each an exact binary fraction) exactly, so a sum kept by
    adding and subtracting is the one added up from scratch. (Only PostgreSQL keeps these
    rows; elsewhere the column exists but is never written.)"""

    description = "an exact number (numeric)"

    def db_type(self, connection) -> str:
        return "numeric"

    def from_db_value(self, value: Any, expression, connection) -> Decimal | None:
        return None if value is None else Decimal(str(value))

    def to_python(self, value: Any) -> Decimal | None:
        return None if value is None else Decimal(str(value))

    def get_prep_value(self, value: Any) -> Decimal | None:
        return None if value is None else Decimal(str(value))


class StandingsTally(models.Model):
    """A league's kept sums: which counted results they hold (their number and the sum of
    their ids, compared at every recompute with the league's counted results) and how many
    of those are not *plain* (a row the games' checks refuse or read otherwise than SQL:
    while one counts, the table is computed from every game)."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="standings_tally"
    )
    results = models.PositiveIntegerField(default=0, help_text="counted results held")
    result_id_sum = models.BigIntegerField(default=0, help_text="the sum of their ids")
    not_plain = models.PositiveIntegerField(default=0, help_text="of them, not plain")
    built_at = models.DateTimeField(auto_now_add=True, help_text="last rebuilt from scratch")

    def __str__(self) -> str:
        return f"standings sums of {self.league_id} ({self.results} results)"


class StandingsTallyEntry(models.Model):
    """One entry's sums over the league's counted results it played in (forfeits add no
    pawns, colours or time): the values ``rank_standings`` takes instead of summing
    games."""

    tally = models.ForeignKey(
        StandingsTally, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    played = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    losses = models.IntegerField(default=0)
    pawns = ExactNumberField(default=Decimal(0), help_text="counted pawns difference")
    colours = ExactNumberField(default=Decimal(0), help_text="completed colours")
    game_time = ExactNumberField(default=Decimal(0), help_text="the known times, exactly")
    times_unknown = models.IntegerField(default=0, help_text="games without a known time")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tally", "entry"], name="tally_entry_unique")
        ]

    def __str__(self) -> str:
        return f"sums of entry {self.entry_id}: {self.played} played"


class StandingsTallyGame(models.Model):
    """What one game's counted result adds to the sums, as it was added: subtracted again
    when that result stops counting or another replaces it. ``seats``: per seated entry
    ``[entry id, won, lost, pawns, colours, time, time unknown]`` (the numbers as exact
    decimal text), and what it adds to head-to-head per pair; empty when the result is not
    plain (it adds nothing then, and counts in ``StandingsTally.not_plain``)."""

    fixture = models.OneToOneField(
        Fixture, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    tally = models.ForeignKey(StandingsTally, on_delete=models.CASCADE, related_name="games")
    results = models.PositiveSmallIntegerField(default=1, help_text="counted results held")
    result_id_sum = models.BigIntegerField(default=0)
    plain = models.BooleanField(default=True)
    seats = models.JSONField(default=list)
    pairs = models.JSONField(default=list, help_text="[[a, b, ±1], …]: head-to-head, a < b")

    def __str__(self) -> str:
        return f"sums added by game {self.fixture_id}"


class StandingsTallyPair(models.Model):
    """Head-to-head of two entries of the league, summed over its counted results in which
    both played (``head_to_head_pairs``): the games ``a`` finished ahead of ``b`` less those
    ``b`` finished ahead of ``a`` (``a`` < ``b``). Head-to-head among any tied group is the
    sum over the pairs inside it."""

    tally = models.ForeignKey(
        StandingsTally, on_delete=models.CASCADE, related_name="pairs", db_index=False
    )
    a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    score = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tally", "a", "b"], name="tally_pair_unique")
        ]

    def __str__(self) -> str:
        return f"head-to-head {self.a_id} v {self.b_id}: {self.score:+d}"
