"""Serializers of API v1: output serializers shape what the API shows, input serializers
check types and shapes only. Business rules are the services' (``tournaments/services``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import GameLog
from tournaments.formats import FORMAT_CHOICES
from tournaments.models import (
    Cycle,
    CycleSeed,
    Entry,
    Fixture,
    League,
    Player,
    RejectedSubmission,
    Result,
    Seat,
    Series,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.services.playoffs import series_score

REASON_MAX = 2000

# --- schema helpers --------------------------------------------------------------------------


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class StringListField(serializers.JSONField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "integer"}})
class IntegerListField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"}})
class IntegerMapField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": {"type": "number"}})
class NumberMapField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    pass


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "object"}]})
class RulesField(serializers.JSONField):
    pass


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


# --- errors ----------------------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: invalid, not_allowed, not_found, …")
    message = serializers.CharField(help_text="what is wrong, in words")
    field = serializers.CharField(allow_null=True, help_text="the input field at fault, if any")
    event = serializers.IntegerField(
        required=False, help_text="a rejected game log: the first offending event (0-based)"
    )
    fields = ObjectField(required=False, help_text="input validation: every field's messages")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


# --- players and accounts --------------------------------------------------------------------


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["slug", "name"]


class PlayerSerializer(serializers.ModelSerializer):
    preferred_colours = StringListField()
    has_account = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["slug", "name", "preferred_colours", "has_account", "created_at"]

    def get_has_account(self, player: Player) -> bool:
        return player.user_id is not None


class PlayerCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    preferred_colours = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, max_length=2
    )
    link_to_me = serializers.BooleanField(
        default=False, help_text="make this player your own profile (once per account)"
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    player = PlayerSerializer(allow_null=True)
    organized_leagues = serializers.ListField(child=serializers.SlugField())


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send as the header "Authorization: Token <token>"')


# --- leagues and entries ---------------------------------------------------------------------


class LeagueSerializer(serializers.ModelSerializer):
    owner = serializers.SerializerMethodField()
    organizers = serializers.SerializerMethodField()
    rules_overrides = ObjectField()
    playoffs = ObjectField()
    precedence = StringListField()
    points_scheme = IntegerListField()

    class Meta:
        model = League
        fields = [
            "slug",
            "name",
            "owner",
            "organizers",
            "format",
            "board",
            "rules_preset",
            "rules_overrides",
            "drr_count",
            "playoffs",
            "precedence",
            "points_scheme",
            "confirmation_required",
            "status",
            "is_public",
            "results_revision",
            "created_at",
        ]

    def get_owner(self, league: League) -> str:
        return league.owner.get_username()

    def get_organizers(self, league: League) -> list[str]:
        return sorted(user.get_username() for user in league.organizers.all())


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=FORMAT_CHOICES)
    board = serializers.ChoiceField(choices=[4, 6], required=False, allow_null=True)
    rules_preset = serializers.CharField(max_length=20, required=False, allow_blank=True)
    rules_overrides = serializers.DictField(required=False)
    drr_count = serializers.IntegerField(default=1, min_value=1, max_value=20)
    playoffs = serializers.DictField(
        required=False,
        allow_null=True,
        help_text='{"kind": "xleague"} or {"kind": "bracket", "seeds": 8, "first_to": [2, 3]}',
    )
    precedence = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, max_length=20
    )
    points_scheme = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        required=False,
        allow_null=True,
        max_length=20,
    )
    confirmation_required = serializers.BooleanField(default=True)
    is_public = serializers.BooleanField(default=True)
    slug = serializers.SlugField(max_length=120, required=False)


class LeagueStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=League.Status.choices)


class OrganizerAddSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class EntrySerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    preferred_colours = StringListField()

    class Meta:
        model = Entry
        fields = ["id", "league", "player", "preferred_colours", "withdrawn_at", "created_at"]


class EntryAddSerializer(serializers.Serializer):
    player = serializers.SlugField(max_length=100, help_text="the player's slug")
    preferred_colours = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, max_length=2
    )


class EntryWithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX, default="withdrew")


class CountSerializer(serializers.Serializer):
    forfeited = serializers.IntegerField(help_text="games forfeited by the withdrawal")


# --- schedule --------------------------------------------------------------------------------


class CycleSeedSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()

    class Meta:
        model = CycleSeed
        fields = ["number", "entry", "player"]

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, seed: CycleSeed) -> dict[str, Any]:
        return PlayerRefSerializer(seed.entry.player).data


class CycleSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seeds = CycleSeedSerializer(many=True, read_only=True)
    rolls = serializers.JSONField()
    late_order = IntegerListField()

    class Meta:
        model = Cycle
        fields = ["id", "league", "number", "seed", "rolls", "late_order", "seeds", "created_at"]


class CycleCreateSerializer(serializers.Serializer):
    rolls = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        required=False,
        allow_null=True,
        max_length=100,
        help_text="the seeding rolls recorded at the table, round by round: "
        '[{"alice": 5, "bob": 5, "carol": 2}, {"alice": 6, "bob": 1}] (player names; '
        "re-rolls of ties follow the first round); omit to let the platform roll",
    )
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**62,
        help_text="random seed for the platform's rolls (stored, reproducible)",
    )
    late_order = serializers.ListField(
        child=serializers.IntegerField(min_value=4, max_value=6),
        required=False,
        min_length=3,
        max_length=3,
        help_text="three players: the order of G4–G6, e.g. [6, 4, 5]",
    )


class LateOrderSerializer(serializers.Serializer):
    late_order = serializers.ListField(
        child=serializers.IntegerField(min_value=4, max_value=6),
        min_length=3,
        max_length=3,
        help_text="the order of G4–G6, e.g. [6, 4, 5]",
    )


# --- fixtures and results --------------------------------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    colours = StringListField()

    class Meta:
        model = Seat
        fields = ["position", "entry", "player", "colours"]

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, seat: Seat) -> dict[str, Any]:
        return PlayerRefSerializer(seat.entry.player).data


class ResultSerializer(serializers.ModelSerializer):
    submitted_by = serializers.SerializerMethodField()
    decided_by = serializers.SerializerMethodField()
    game_log = serializers.SerializerMethodField()
    placings = IntegerListField()
    colour_places = IntegerListField()
    both_finished = IntegerListField()
    counted_pawns = IntegerMapField()
    completed_colours = IntegerMapField()
    captures = IntegerMapField()
    count_points = NumberMapField()

    class Meta:
        model = Result
        fields = [
            "id",
            "fixture",
            "source",
            "state",
            "winner",
            "placings",
            "colour_places",
            "both_finished",
            "counted_pawns",
            "completed_colours",
            "captures",
            "count_points",
            "game_time",
            "forfeit_loser",
            "verified",
            "submitted_by",
            "reason",
            "created_at",
            "decided_by",
            "decided_at",
            "decision_note",
            "game_log",
        ]

    def get_submitted_by(self, result: Result) -> str | None:
        return _username(result.submitted_by)

    def get_decided_by(self, result: Result) -> str | None:
        return _username(result.decided_by)

    def get_game_log(self, result: Result) -> str | None:
        """The SHA-256 of the result's game log (download: /results/{id}/log/)."""
        return result.game_log.sha256 if result.game_log_id else None


class FixtureSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    cycle = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True, read_only=True)
    counted_result = serializers.SerializerMethodField()
    open_result = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = [
            "id",
            "league",
            "cycle",
            "series",
            "round",
            "number",
            "label",
            "starting_colour",
            "scheduled_at",
            "status",
            "updated_at",
            "seats",
            "counted_result",
            "open_result",
        ]

    def get_cycle(self, fixture: Fixture) -> int | None:
        """The DRR number."""
        return fixture.cycle.number if fixture.cycle_id else None

    def _result(self, fixture: Fixture, states) -> dict[str, Any] | None:
        for result in fixture.results.all():
            if result.state in states:
                return ResultSerializer(result).data
        return None

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_counted_result(self, fixture: Fixture) -> dict[str, Any] | None:
        return self._result(fixture, (Result.State.CONFIRMED,))

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_open_result(self, fixture: Fixture) -> dict[str, Any] | None:
        """A result awaiting confirmation, or disputed."""
        return self._result(fixture, Result.OPEN_STATES)


class LogUploadSerializer(serializers.Serializer):
    """multipart/form-data: the log as a file (or pasted as text in ``log``)."""

    file = serializers.FileField(required=False)
    log = serializers.CharField(required=False)


class ReportSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text="the winner's entry id (see the fixture's seats)")
    counted_pawns = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=8),
        required=False,
        help_text="entry id → counted pawns",
    )
    reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


class ResultEnterSerializer(ReportSerializer):
    reason = serializers.CharField(max_length=REASON_MAX, help_text="why it is entered")


class ForfeitSerializer(serializers.Serializer):
    loser = serializers.IntegerField(help_text="the forfeiting entry's id")
    reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX)


class ResolveSerializer(serializers.Serializer):
    accept = serializers.BooleanField(help_text="true: the result counts; false: rejected")
    note = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


class RejectedSubmissionSerializer(serializers.ModelSerializer):
    submitted_by = serializers.SerializerMethodField()

    class Meta:
        model = RejectedSubmission
        fields = ["id", "fixture", "submitted_by", "created_at", "sha256", "size", "event", "error"]

    def get_submitted_by(self, rejection: RejectedSubmission) -> str | None:
        return _username(rejection.submitted_by)


class GameLogInfoSerializer(serializers.ModelSerializer):
    rules = RulesField()
    players = ObjectField()
    placings = StringListField()
    pawns_home = IntegerMapField()
    captures = IntegerMapField()

    class Meta:
        model = GameLog
        fields = [
            "sha256",
            "size",
            "board",
            "rules",
            "players",
            "first",
            "complete",
            "events",
            "placings",
            "winner",
            "pawns_home",
            "captures",
            "game_time",
            "uploaded_at",
        ]


# --- playoffs and standings ------------------------------------------------------------------


class SeriesScoreSerializer(serializers.Serializer):
    higher = serializers.IntegerField(
        help_text="games won by the higher seed (head start included)"
    )
    lower = serializers.IntegerField(help_text="games won by the lower seed")
    head_start = serializers.IntegerField()
    games_played = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True, help_text="entry id, once decided")


class SeriesSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    higher_player = serializers.SerializerMethodField()
    lower_player = serializers.SerializerMethodField()
    fixtures = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    score = serializers.SerializerMethodField()

    class Meta:
        model = Series
        fields = [
            "id",
            "league",
            "round",
            "slot",
            "name",
            "first_to",
            "higher",
            "higher_player",
            "higher_seed",
            "lower",
            "lower_player",
            "lower_seed",
            "head_start",
            "head_start_rule",
            "winner",
            "next_series",
            "status",
            "score",
            "fixtures",
        ]

    @extend_schema_field(SeriesScoreSerializer(allow_null=True))
    def get_score(self, series: Series) -> dict[str, Any] | None:
        """The score so far; null until both players are known."""
        state = series_score(series)
        if state is None:
            return None
        return {
            "higher": state.higher_score,
            "lower": state.lower_score,
            "head_start": state.head_start,
            "games_played": state.games_played,
            "winner": state.winner,
        }

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_higher_player(self, series: Series) -> dict[str, Any] | None:
        return PlayerRefSerializer(series.higher.player).data if series.higher_id else None

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_lower_player(self, series: Series) -> dict[str, Any] | None:
        return PlayerRefSerializer(series.lower.player).data if series.lower_id else None


class StandingsRowSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    metrics = ObjectField()

    class Meta:
        model = StandingsRow
        fields = [
            "rank",
            "position",
            "entry",
            "player",
            "played",
            "wins",
            "losses",
            "points",
            "metrics",
            "separated_by",
        ]

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, row: StandingsRow) -> dict[str, Any]:
        return PlayerRefSerializer(row.entry.player).data


class StandingsSnapshotSerializer(serializers.ModelSerializer):
    rows = StandingsRowSerializer(many=True, read_only=True)
    precedence = StringListField()

    class Meta:
        model = StandingsSnapshot
        fields = [
            "stage",
            "results_revision",
            "provisional",
            "games_played",
            "games_total",
            "precedence",
            "computed_at",
            "rows",
        ]
