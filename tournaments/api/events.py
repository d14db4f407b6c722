"""Events and formats: scheduling a triple-threat / Challengers / Grand Prix event, a Grand
Prix's standing and extra games, an open tournament's drawn rounds, final table and final
ranking, recorded tie-break rolls and starting colours."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from tournaments.api.base import READ_ERRORS, WRITE_ERRORS, ApiView, ObjectField, league_revision
from tournaments.api.fixtures import FixtureSerializer, FixtureView, fixture_queryset
from tournaments.models import League, OpenRound, TieBreakRoll
from tournaments.services import events as event_services
from tournaments.services import open_tournaments as open_services
from tournaments.services import tie_breaks as tie_break_services
from tournaments.services.errors import ServiceError


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "object", "additionalProperties": {"type": "integer"}},
    }
)
class RollRoundsField(serializers.JSONField):
    pass


class SeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**62,
        help_text="random seed of the draw and the platform's dice (stored, reproducible)",
    )


class RollsSerializer(serializers.Serializer):
    rolls = RollRoundsField(
        help_text='roll rounds, player (name) → roll: [{"Ann": 5, "Ben": 5}, {"Ann": 2, '
        '"Ben": 6}] (re-rolls of ties follow the first round)'
    )
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class StartRecordSerializer(serializers.Serializer):
    rolls = RollRoundsField(
        required=False,
        help_text='the starting die rolls at the table, colour → roll: [{"red": 6, '
        '"yellow": 6, "black": 2}, {"red": 3, "yellow": 5}]',
    )
    colour = serializers.CharField(max_length=20, required=False)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class TieBreakRollSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    recorded_by = serializers.SerializerMethodField()

    class Meta:
        model = TieBreakRoll
        fields = ["id", "fixture", "players", "rounds", "note", "recorded_by", "recorded_at"]

    def get_players(self, roll: TieBreakRoll) -> list[str]:
        names = self.context.get("names", {})
        return [names.get(pk, str(pk)) for pk in roll.entry_ids]

    @extend_schema_field(RollRoundsField(help_text="roll rounds, player name → roll"))
    def get_rounds(self, roll: TieBreakRoll) -> list[dict[str, int]]:
        names = self.context.get("names", {})
        return [{names.get(int(k), k): v for k, v in r.items()} for r in roll.rounds]

    def get_recorded_by(self, roll: TieBreakRoll) -> str | None:
        return roll.recorded_by.get_username() if roll.recorded_by_id else None


class OpenRoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = OpenRound
        fields = ["number", "seed", "is_final", "created_at"]


class GrandPrixSerializer(serializers.Serializer):
    points = ObjectField(help_text="player name → GP points")
    leaders = serializers.ListField(child=serializers.CharField())
    winner = serializers.CharField(allow_null=True)
    games_left = serializers.IntegerField()
    games_cancelled = serializers.IntegerField()
    extra_game_needed = serializers.BooleanField()
    chasers = serializers.ListField(child=serializers.CharField())


def _names(league: League) -> dict[int, str]:
    return dict(league.entries.values_list("pk", "player__name"))


def _fixtures(request, league: League, **filters) -> list[dict[str, Any]]:
    queryset = fixture_queryset(request.user).filter(league=league, **filters)
    return FixtureSerializer(queryset, many=True).data


class EventScheduleView(ApiView):
    queryset = League.objects.none()

    @extend_schema(
        summary="Schedule every game of a triple-threat, Challengers or Grand Prix event "
        "(organizers)",
        description="Game 1 (Challengers: game 0) is started by die roll, rolled here from "
        "`seed` and kept; later games show `start.decided_by` until the game before counts. "
        "A Grand Prix game rolls its own dice.",
        request=SeedSerializer,
        responses={201: FixtureSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(SeedSerializer, request)
        event_services.event_schedule(league=league, by=request.user, seed=data.get("seed"))
        return Response(_fixtures(request, league), status=status.HTTP_201_CREATED)


def _grand_prix(league: League) -> dict[str, Any]:
    if league.event_kind != League.EventKind.GRAND_PRIX:
        raise Http404(f"{league.name} is not a Grand Prix")
    names = _names(league)
    state = event_services.grand_prix_state(league)
    points = event_services.grand_prix_points(league)
    fixtures = league.fixtures
    return {
        "points": {names[pk]: value for pk, value in points.items()},
        "leaders": [names[p] for p in state.leaders],
        "winner": names[state.winner] if state.winner is not None else None,
        "games_left": fixtures.filter(status__in=open_services.UNDECIDED).count(),
        "games_cancelled": fixtures.filter(cancel_reason="decided").count(),
        "extra_game_needed": state.extra_game_needed,
        "chasers": [names[p] for p in state.chasers],
    }


class GrandPrixView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = League.objects.none()

    @extend_schema(
        summary="Where a Grand Prix stands: points, leaders, the certain winner, games left "
        "and cancelled",
        responses={200: GrandPrixSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        return Response(_grand_prix(self.visible_league(slug)))


class GrandPrixExtraGameView(ApiView):
    queryset = League.objects.none()

    @extend_schema(
        summary="Add an extra game to a Grand Prix whose top is tied with no game left "
        "(organizers; the platform adds it by itself when the last game counts)",
        request=None,
        responses={201: FixtureSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        fixture = event_services.grand_prix_add_game(league=league, by=request.user)
        fixture = fixture_queryset(request.user).get(pk=fixture.pk)
        return Response(FixtureSerializer(fixture).data, status=status.HTTP_201_CREATED)


class OpenRoundListView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = OpenRound.objects.none()

    @extend_schema(
        summary="An open tournament's drawn rounds (and final table) with their seed",
        responses={200: OpenRoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return self.paginated(league.open_rounds.order_by("number"), OpenRoundSerializer)

    @extend_schema(
        summary="Draw the next preliminary round of an open tournament (organizers)",
        description="Tables of 3–4 drawn by lot avoiding repeat opponents, seats and colours "
        "balanced; the tournament's seed (given here on the first draw, or chosen) makes it "
        "reproducible. Refused while a game of the last round has no counted result.",
        request=SeedSerializer,
        responses={201: FixtureSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(SeedSerializer, request)
        drawn = open_services.open_round_draw(league=league, by=request.user, seed=data.get("seed"))
        return Response(
            _fixtures(request, league, round=drawn.number), status=status.HTTP_201_CREATED
        )


class OpenFinalTableView(ApiView):
    queryset = League.objects.none()

    @extend_schema(
        summary="Seat the final table: the best four of the preliminary ranking (organizers)",
        request=None,
        responses={201: FixtureSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        fixture = open_services.open_final_table(league=league, by=request.user)
        fixture = fixture_queryset(request.user).get(pk=fixture.pk)
        return Response(FixtureSerializer(fixture).data, status=status.HTTP_201_CREATED)


class FinalRankingSerializer(serializers.Serializer):
    final = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="null until the final counts"
    )


class OpenFinalRankingView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = League.objects.none()

    @extend_schema(
        summary="An open tournament's final ranking: the final table's placings, then the "
        "preliminary order",
        responses={200: FinalRankingSerializer, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        order = open_services.open_final_ranking(league)
        names = _names(league)
        return Response({"final": [names[e] for e in order] if order is not None else None})


class TieBreakRollListView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = TieBreakRoll.objects.none()

    @extend_schema(
        summary="The tie-break die rolls recorded in a league: who rolled what, when",
        responses={200: TieBreakRollSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        rolls = league.tie_break_rolls.select_related("recorded_by").order_by("recorded_at")
        page = self.paginate_queryset(rolls)
        data = TieBreakRollSerializer(page, many=True, context={"names": _names(league)}).data
        return self.get_paginated_response(data)

    @extend_schema(
        summary="Record a tie-break roll between tied players (organizers)",
        description="The standings' die-roll tie-break uses the latest roll-off that every "
        "player of a tied group took part in (seeding rolls and these).",
        request=RollsSerializer,
        responses={201: TieBreakRollSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.organized_league(slug)
        data = self.input(RollsSerializer, request)
        roll = tie_break_services.tie_break_roll_record(
            league=league, by=request.user, rolls=data["rolls"], note=data.get("note", "")
        )
        return Response(
            TieBreakRollSerializer(roll, context={"names": _names(league)}).data,
            status=status.HTTP_201_CREATED,
        )


class FixtureTieRollView(FixtureView):
    @extend_schema(
        summary="Record the die roll for players of a time-limited game still tied on count "
        "points (organizers); the game is placed again with it",
        request=RollsSerializer,
        responses={201: TieBreakRollSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(RollsSerializer, request)
        roll = tie_break_services.game_tie_roll_record(
            fixture=fixture, by=request.user, rolls=data["rolls"], note=data.get("note", "")
        )
        return Response(
            TieBreakRollSerializer(roll, context={"names": _names(fixture.league)}).data,
            status=status.HTTP_201_CREATED,
        )


class FixtureStartView(FixtureView):
    @extend_schema(
        summary="Record a game's starting colour (organizers): the die rolls at the table, or "
        "a colour set by hand with a reason",
        request=StartRecordSerializer,
        responses={200: FixtureSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(StartRecordSerializer, request)
        if "rolls" in data and not isinstance(data["rolls"], list):
            raise ServiceError("rolls are a list of rounds, each {colour: roll}", field="rolls")
        event_services.fixture_start_record(
            fixture=fixture,
            by=request.user,
            rolls=data.get("rolls"),
            colour=data.get("colour"),
            reason=data.get("reason", ""),
        )
        return Response(FixtureSerializer(self.get_fixture(pk)).data)
