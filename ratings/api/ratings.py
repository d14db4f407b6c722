"""Ratings and rankings: the ratings table (JSON, CSV), a player's rating history, win
predictions for a scheduled game, the 3T World Rankings (JSON, CSV) and a league's ranking
level and flags (organizers)."""

from __future__ import annotations

import datetime as dt

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from ratings.exports import ratings_csv
from ratings.models import PlayerRating
from ratings.selectors import ratings as rating_selectors
from ratings.web.ratings import rankings_revision, ratings_revision
from tournaments import exports
from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    ApiView,
    DownloadView,
    download,
)
from tournaments.api.leagues import LeagueSerializer
from tournaments.api.players import PlayerRefSerializer
from tournaments.formats import FORMAT_CHOICES
from tournaments.models import Fixture, League, Player
from tournaments.selectors import rankings as ranking_selectors
from tournaments.selectors.visibility import visible_fixtures
from tournaments.services import rankings as ranking_services
from tournaments.services.errors import ServiceError

FILTER_PARAMETERS = [
    OpenApiParameter(
        "game_format",
        str,
        enum=[code for code, _label in FORMAT_CHOICES],
        description="players who played this format (2T, 3T, …)",
    ),
    OpenApiParameter(
        "board", int, enum=[4, 6], description="players who played on this board (4 or 6)"
    ),
    OpenApiParameter(
        "active",
        {"type": "integer", "minimum": 1, "maximum": 120},
        description="players with a rated game in the last N months (1 to 120)",
    ),
]


def _filters(request) -> rating_selectors.RatingFilters:
    try:
        return rating_selectors.RatingFilters.parse(request.query_params)
    except rating_selectors.FilterError as exc:
        raise ServiceError(str(exc), field=exc.field) from None


class RatingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    rating = serializers.IntegerField(help_text="round(1000 + 40 × (mu − 3 sigma))")
    provisional = serializers.BooleanField(help_text="sigma above 6: too few games to compare")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class RatingListView(ApiView):
    stored_revision = staticmethod(ratings_revision)
    queryset = PlayerRating.objects.none()

    @extend_schema(
        summary="The ratings table (every rated player, best first)",
        parameters=FILTER_PARAMETERS,
        responses={200: RatingRowSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        page = self.paginate_queryset(rating_selectors.ratings_queryset(_filters(request)))
        rows = [rating_selectors.rating_row(r) for r in page]
        return self.get_paginated_response(RatingRowSerializer(rows, many=True).data)


class RatingCsvView(DownloadView):
    stored_revision = staticmethod(ratings_revision)
    queryset = PlayerRating.objects.none()

    @extend_schema(
        summary="The ratings table as CSV",
        parameters=FILTER_PARAMETERS,
        responses={(200, "text/csv"): OpenApiTypes.STR, **LIST_ERRORS},
    )
    def get(self, request):
        rows = rating_selectors.ratings_table(_filters(request))
        return download(ratings_csv(rows), "text/csv; charset=utf-8", "ratings.csv")


class RatingChangeSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(help_text="the game's rating sequence (rating order)")
    fixture = serializers.IntegerField(source="fixture_id")
    league = serializers.CharField(source="fixture.league.slug")
    played_at = serializers.DateTimeField()
    place = serializers.IntegerField()
    rating_before = serializers.IntegerField(source="display_before")
    rating_after = serializers.IntegerField(source="display_after")
    delta = serializers.IntegerField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    win_probability = serializers.FloatField(help_text="the forecast before the game")


class PlayerRatingHistoryView(ApiView):
    queryset = Player.objects.none()

    @extend_schema(
        summary="A player's rating history (games in leagues you may see)",
        responses={200: RatingChangeSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        return self.paginated(
            rating_selectors.rating_history(player, request.user), RatingChangeSerializer
        )


class PredictionSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    rating = serializers.IntegerField(allow_null=True, help_text="null: no rated game yet")
    provisional = serializers.BooleanField()
    probability = serializers.FloatField(help_text="chance to win; the players' sum to 1")


class FixturePredictionSerializer(serializers.Serializer):
    fixture = serializers.IntegerField()
    status = serializers.CharField()
    predictions = PredictionSerializer(many=True, allow_null=True)


class FixturePredictionView(ApiView):
    queryset = Fixture.objects.none()

    @extend_schema(
        summary="Win probabilities of a scheduled game from the current ratings",
        description="`predictions` is null once the game has a result or is cancelled.",
        responses={200: FixturePredictionSerializer, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        fixture = get_object_or_404(
            visible_fixtures(request.user).prefetch_related("seats__entry__player"), pk=pk
        )
        prediction = rating_selectors.fixture_prediction(fixture)
        return Response(
            FixturePredictionSerializer(
                {"fixture": fixture.pk, "status": fixture.status, "predictions": prediction}
            ).data
        )


def _as_of(request) -> dt.date | None:
    if "as_of" not in request.query_params:
        return None
    value = request.query_params.get("as_of").strip()  # ?as_of= : a 400, not "today"
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ServiceError("as_of must be a date, YYYY-MM-DD", field="as_of") from None


AS_OF = [OpenApiParameter("as_of", OpenApiTypes.DATE, description="the ranking at this date")]


class CountedTournamentSerializer(serializers.Serializer):
    league = serializers.SerializerMethodField()
    name = serializers.CharField()
    date = serializers.DateField()
    level = serializers.IntegerField()
    world_championship = serializers.BooleanField()
    major = serializers.BooleanField()
    place = serializers.IntegerField()
    games_won = serializers.IntegerField()
    basic_points = serializers.IntegerField()
    tournament_points = serializers.IntegerField()
    winner_points = serializers.IntegerField()
    points = serializers.IntegerField()

    def get_league(self, item) -> str:
        league = self.context["leagues"].get(item.tournament_id)
        return league.slug if league else ""


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    points = serializers.IntegerField()
    tournament_points = serializers.IntegerField()
    winner_points = serializers.IntegerField()
    world_championships_won = serializers.IntegerField()
    majors_won = serializers.IntegerField()
    tournaments_won = serializers.IntegerField()
    tournaments_played = serializers.IntegerField()
    separated_by = serializers.CharField(allow_null=True)
    history = CountedTournamentSerializer(many=True)

    def get_player(self, row) -> dict:
        player = self.context["players"].get(row.player)
        return PlayerRefSerializer(player).data if player else {}


class RankingsView(ApiView):
    stored_revision = staticmethod(rankings_revision)
    queryset = League.objects.none()
    pagination_class = None  # the whole ranking: a few dozen rows, one computed table

    @extend_schema(
        summary="The 3T World Rankings (the last 9 triple-threat tournaments)",
        parameters=AS_OF,
        responses={200: RankingRowSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        page = ranking_selectors.world_rankings(_as_of(request))
        context = {"players": page.players, "leagues": page.leagues}
        return Response(RankingRowSerializer(page.ranking.rows, many=True, context=context).data)


class RankingsCsvView(DownloadView):
    stored_revision = staticmethod(rankings_revision)
    queryset = League.objects.none()

    @extend_schema(
        summary="The 3T World Rankings as CSV",
        parameters=AS_OF,
        responses={(200, "text/csv"): OpenApiTypes.STR, **LIST_ERRORS},
    )
    def get(self, request):
        page = ranking_selectors.world_rankings(_as_of(request))
        return download(exports.rankings_csv(page), "text/csv; charset=utf-8", "rankings.csv")


class LeagueRankingSerializer(serializers.Serializer):
    level = serializers.IntegerField(
        allow_null=True, help_text="1–4, or null: not in the world rankings"
    )
    world_championship = serializers.BooleanField(default=False)
    major = serializers.BooleanField(default=False)


class LeagueRankingView(ApiView):
    queryset = League.objects.none()
    lookup_field = "slug"

    @extend_schema(
        summary="Set a triple-threat league's ranking level and flags (organizers)",
        request=LeagueRankingSerializer,
        responses={200: LeagueSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.organized_league(slug)
        data = self.input(LeagueRankingSerializer, request)
        league = ranking_services.league_set_ranking(league=league, by=request.user, **data)
        return Response(LeagueSerializer(league).data)
