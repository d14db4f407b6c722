"""A league's DRRs (cycles): list, seed and schedule the next one, reorder G4–G6."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    ApiView,
    IntegerListField,
    league_revision,
)
from tournaments.api.players import PlayerRefSerializer
from tournaments.models import (
    Cycle,
    CycleSeed,
    League,
)
from tournaments.services import schedule as schedule_services


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


class CycleView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = Cycle.objects.none()

    def _cycles(self, league: League):
        return league.cycles.select_related("league").prefetch_related(
            Prefetch("seeds", queryset=CycleSeed.objects.select_related("entry__player"))
        )


class CycleListView(CycleView):
    @extend_schema(
        summary="A league's DRRs with their seeding",
        responses={200: CycleSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return self.paginated(self._cycles(league).order_by("number"), CycleSerializer)

    @extend_schema(
        summary="Seed and schedule the next DRR (organizers)",
        description="Seeding by die roll: send the rolls recorded at the table, or none to let "
        "the platform roll (reproducibly, from `seed`). Creates every game of the DRR with its "
        "seats, colours and starting colour; a draft or registration league starts running.",
        request=CycleCreateSerializer,
        responses={201: CycleSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(CycleCreateSerializer, request)
        cycle = schedule_services.cycle_create(
            league=league,
            by=request.user,
            rolls=data.get("rolls"),
            seed=data.get("seed"),
            late_order=data.get("late_order"),
        )
        cycle = self._cycles(league).get(pk=cycle.pk)
        return Response(CycleSerializer(cycle).data, status=status.HTTP_201_CREATED)


class CycleDetailView(CycleView):
    @extend_schema(summary="One DRR", responses={200: CycleSerializer, **READ_ERRORS})
    def get(self, request, slug: str, number: int):
        league = self.visible_league(slug)
        cycle = self._cycles(league).filter(number=number).first()
        if cycle is None:
            raise Http404(f"{league.name} has no DRR {number}")
        return Response(CycleSerializer(cycle).data)


class CycleLateOrderView(CycleView):
    @extend_schema(
        summary="Three players: reorder G4–G6 of a DRR before they are played (organizers)",
        request=LateOrderSerializer,
        responses={200: CycleSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str, number: int):
        league = self.visible_league(slug)
        cycle = self._cycles(league).filter(number=number).first()
        if cycle is None:
            raise Http404(f"{league.name} has no DRR {number}")
        data = self.input(LateOrderSerializer, request)
        schedule_services.cycle_reorder_late_games(
            cycle=cycle, by=request.user, late_order=data["late_order"]
        )
        return Response(CycleSerializer(self._cycles(league).get(pk=cycle.pk)).data)
