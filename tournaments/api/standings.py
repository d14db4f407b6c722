"""A league's standings snapshots."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.response import Response

from tournaments.api.base import READ_ERRORS, ApiView, ObjectField, StringListField, league_revision
from tournaments.api.players import PlayerRefSerializer
from tournaments.models import (
    StandingsRow,
    StandingsSnapshot,
)


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


class StandingsView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = StandingsSnapshot.objects.none()
    pagination_class = None  # one snapshot per stage: a plain list, and the schema says so

    @extend_schema(
        summary="A league's standings (the newest snapshot of each stage)",
        parameters=[OpenApiParameter("stage", str, description='e.g. "league"')],
        responses={200: StandingsSnapshotSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        snapshots = league.snapshots.prefetch_related(
            Prefetch(
                "rows",
                queryset=StandingsRow.objects.select_related("entry__player").order_by("position"),
            )
        ).order_by("stage")
        if stage := request.query_params.get("stage"):
            snapshots = snapshots.filter(stage=stage)
        return Response(StandingsSnapshotSerializer(snapshots, many=True).data)
