"""Playoffs: generate them, a league's series and one series with its score."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
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
    league_revision,
    series_revision,
)
from tournaments.api.leagues import LeagueView
from tournaments.api.players import PlayerRefSerializer
from tournaments.models import (
    Series,
)
from tournaments.selectors.playoffs import series_score, series_with_games
from tournaments.selectors.visibility import visible_series
from tournaments.services import playoffs as playoff_services


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
        state = series_score(series, series.fixtures.all())
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


class SeriesListView(ApiView):
    stored_revision = staticmethod(league_revision)
    queryset = Series.objects.none()

    @extend_schema(
        summary="A league's playoff series",
        responses={200: SeriesSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        series = series_with_games(league.series.select_related("league")).order_by("round", "slot")
        return self.paginated(series, SeriesSerializer)


class PlayoffsView(LeagueView):
    @extend_schema(
        summary="Generate the playoffs from the final standings (organizers)",
        description="Seeds the league's playoff series (its `playoffs` setting: XLeague or a "
        "bracket) from the settled table, applies the head-start rule and schedules the first "
        "games; the league moves to playoffs. Series then advance by themselves as results "
        "are confirmed.",
        request=None,
        responses={201: SeriesSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        series = playoff_services.playoffs_generate(league=league, by=request.user)
        series = series_with_games(
            Series.objects.filter(pk__in=[item.pk for item in series]).select_related("league")
        ).order_by("round", "slot")
        return Response(SeriesSerializer(series, many=True).data, status=status.HTTP_201_CREATED)


class SeriesDetailView(ApiView):
    stored_revision = staticmethod(series_revision)
    queryset = Series.objects.none()

    @extend_schema(summary="A playoff series", responses={200: SeriesSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        series = get_object_or_404(
            series_with_games(visible_series(request.user).select_related("league")), pk=pk
        )
        return Response(SeriesSerializer(series).data)
