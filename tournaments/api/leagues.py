"""Leagues: list, create, detail, status changes and co-organizers."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    ApiView,
    IntegerListField,
    ObjectField,
    StringListField,
    _errors,
)
from tournaments.api.filters import LeagueFilter
from tournaments.formats import FORMAT_CHOICES
from tournaments.models import (
    League,
)
from tournaments.selectors.visibility import (
    visible_leagues,
)
from tournaments.services import leagues as league_services
from tournaments.services.errors import ServiceError


class LeagueSerializer(serializers.ModelSerializer):
    owner = serializers.SerializerMethodField()
    organizers = serializers.SerializerMethodField()
    rules_overrides = ObjectField()
    playoffs = ObjectField()
    precedence = StringListField()
    points_scheme = IntegerListField()
    game_formats = StringListField()

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
            "event_kind",
            "game_formats",
            "games_planned",
            "time_limit_minutes",
            "final_table_size",
            "draw_seed",
            "status",
            "is_public",
            "results_revision",
            "ranking_level",
            "world_championship",
            "major",
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
    event_kind = serializers.ChoiceField(
        choices=League.EventKind.choices,
        required=False,
        help_text="league (DRRs; the default), triple-threat, challengers, grand-prix, open",
    )
    game_formats = serializers.ListField(
        child=serializers.CharField(max_length=8),
        required=False,
        max_length=50,
        help_text='triple-threat / Challengers: each game\'s format, e.g. ["3T", "GP", "3T+"]',
    )
    games_planned = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=50,
        help_text="Grand Prix: the number of games; open: preliminary rounds",
    )
    time_limit_minutes = serializers.IntegerField(required=False, allow_null=True)
    final_table_size = serializers.IntegerField(required=False, min_value=0, max_value=6)
    draw_seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**62
    )


class LeagueStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=League.Status.choices)


class OrganizerAddSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


def _league_queryset(user) -> QuerySet[League]:
    return (
        visible_leagues(user)
        .select_related("owner")
        .prefetch_related("organizers")
        .order_by("-created_at", "pk")
    )


class LeagueListView(ApiView):
    filterset_class = LeagueFilter
    queryset = League.objects.all()

    @extend_schema(
        summary="List the leagues you may see",
        responses={200: LeagueSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        return self.paginated(_league_queryset(request.user), LeagueSerializer)

    @extend_schema(
        summary="Create a league (you become its owner)",
        request=LeagueCreateSerializer,
        responses={201: LeagueSerializer, **_errors(400, 401)},
    )
    def post(self, request):
        data = self.input(LeagueCreateSerializer, request)
        league = league_services.league_create(owner=request.user, **data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueView(ApiView):
    queryset = League.objects.none()
    lookup_field = "slug"


class LeagueDetailView(LeagueView):
    @extend_schema(summary="A league", responses={200: LeagueSerializer, **READ_ERRORS})
    def get(self, request, slug: str):
        return Response(LeagueSerializer(self.visible_league(slug)).data)


class LeagueStatusView(LeagueView):
    @extend_schema(
        summary="Change a league's status (organizers)",
        description="draft → registration → running → playoffs → finished "
        "(registration may go back to draft).",
        request=LeagueStatusSerializer,
        responses={200: LeagueSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(LeagueStatusSerializer, request)
        league = league_services.league_set_status(
            league=league, status=data["status"], by=request.user
        )
        return Response(LeagueSerializer(league).data)


class LeagueOrganizerView(LeagueView):
    @extend_schema(
        summary="Add a co-organizer (organizers)",
        request=OrganizerAddSerializer,
        responses={200: LeagueSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(OrganizerAddSerializer, request)
        user = get_user_model().objects.filter(username=data["username"], is_active=True).first()
        if user is None:
            raise ServiceError(f"there is no user {data['username']!r}", field="username")
        league_services.league_add_organizer(league=league, user=user, by=request.user)
        return Response(LeagueSerializer(league).data)
