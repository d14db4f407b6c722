"""Leagues: list, create, detail, status changes and co-organizers."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from core.throttles import LeagueCreateThrottle
from ratings.selectors.rated_leagues import league_rating, rating_decisions_prefetch
from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    ApiView,
    IntegerListField,
    ObjectField,
    StringListField,
    error_responses,
    league_revision,
    site_revision,
)
from tournaments.api.filters import LeagueFilter
from tournaments.models import (
    League,
)
from tournaments.selectors.visibility import (
    visible_leagues,
)
from tournaments.services import league_settings as spec
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
    rated = serializers.SerializerMethodField(
        help_text="whether the league's games move ratings and world rankings: sanctioned by a "
        "rating officer, or every league on a RATED_LEAGUES=all install (docs/ratings.md)"
    )
    rated_why = serializers.SerializerMethodField(help_text="why the league is rated or not")

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
            "game0_counts",
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
            "rated",
            "rated_why",
            "created_at",
        ]

    def _rating(self, league: League):
        cache = self.context.setdefault("league_rating", {})
        if league.pk not in cache:
            cache[league.pk] = league_rating(league)
        return cache[league.pk]

    def get_rated(self, league: League) -> bool:
        return self._rating(league).rated

    def get_rated_why(self, league: League) -> str:
        return self._rating(league).why

    def get_owner(self, league: League) -> str:
        return league.owner.get_username()

    def get_organizers(self, league: League) -> list[str]:
        return sorted(user.get_username() for user in league.organizers.all())


def _bool_field(s, help_text) -> serializers.Field:
    return serializers.BooleanField(default=s.default, help_text=help_text)


def _slug_field(s, help_text) -> serializers.Field:
    return serializers.SlugField(max_length=s.max_length, required=False, help_text=help_text)


def _choice_field(s, help_text) -> serializers.Field:
    """The setting's values; blank too for a setting that may be unset and is no number."""
    return serializers.ChoiceField(
        choices=[v for v, _label in s.choices],
        required=s.default is None and not s.nullable,
        allow_null=s.nullable,
        allow_blank=s.nullable and not all(isinstance(v, int) for v in s.choice_values()),
        help_text=help_text,
    )


def _int_field(s, help_text) -> serializers.Field:
    low, high = s.widest or (None, None)
    return serializers.IntegerField(
        required=False,
        allow_null=s.nullable,
        min_value=low,
        max_value=high,
        help_text=help_text,
        **({"default": s.default} if s.default is not None else {}),
    )


def _int_list_field(s, help_text) -> serializers.Field:
    return serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        required=False,
        allow_null=True,
        max_length=s.bounds[1] if s.bounds else None,
        help_text=help_text,
    )


def _format_list_field(s, help_text) -> serializers.Field:
    return serializers.ListField(
        child=serializers.CharField(max_length=8),
        required=False,
        max_length=s.bounds[1] if s.bounds else None,
        help_text=help_text,
    )


def _text_field(s, help_text) -> serializers.Field:
    return serializers.CharField(max_length=s.max_length or 200, help_text=help_text)


#: a setting's kind → its API field (``_text_field`` for any other kind)
FIELD_BY_KIND = {
    "bool": _bool_field,
    "slug": _slug_field,
    "choice": _choice_field,
    "int": _int_field,
    "int-list": _int_list_field,
    "format-list": _format_list_field,
}


def setting_serializer_field(name: str) -> serializers.Field:
    """The API field of a league setting, from its one specification
    (``tournaments.services.league_settings``): the same choices and bounds as the forms and the
    service (which checks every value again, by the same specification)."""
    s = spec.SETTINGS[name]
    build = FIELD_BY_KIND.get(s.kind, _text_field)
    return build(s, str(s.help) if s.help else None)


class LeagueCreateSerializer(serializers.Serializer):
    """Built from the league settings' specification (``SERIALIZED``); rules options,
    playoffs and precedence are objects checked by the service."""

    SERIALIZED = (
        "name",
        "slug",
        "event_kind",
        "format",
        "board",
        "rules_preset",
        "drr_count",
        "game_formats",
        "game0_counts",
        "games_planned",
        "time_limit_minutes",
        "final_table_size",
        "points_scheme",
        "ranking_level",
        "confirmation_required",
        "is_public",
        "registration_open",
        "draw_seed",
    )
    rules_overrides = serializers.DictField(required=False)
    playoffs = serializers.DictField(
        required=False,
        allow_null=True,
        help_text='{"kind": "xleague"} or {"kind": "bracket", "seeds": 8, "first_to": [2, 3]}',
    )
    precedence = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, max_length=20
    )

    def get_fields(self):
        fields = super().get_fields()
        for name in self.SERIALIZED:
            fields[name] = setting_serializer_field(name)
        return fields


class LeagueStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=League.Status.choices)


class OrganizerAddSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


def _league_queryset(user) -> QuerySet[League]:
    return (
        visible_leagues(user)
        .select_related("owner")
        .prefetch_related("organizers", rating_decisions_prefetch())
        .order_by("-created_at", "pk")
    )


class LeagueListView(ApiView):
    stored_revision = staticmethod(site_revision)
    filterset_class = LeagueFilter
    queryset = League.objects.all()
    throttle_classes = [LeagueCreateThrottle]  # counts POSTs only

    @extend_schema(
        summary="List the leagues you may see",
        responses={200: LeagueSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        return self.paginated(_league_queryset(request.user), LeagueSerializer)

    @extend_schema(
        summary="Create a league (you become its owner)",
        request=LeagueCreateSerializer,
        responses={201: LeagueSerializer, **error_responses(400, 401, 429)},
    )
    def post(self, request):
        data = self.input(LeagueCreateSerializer, request)
        league = league_services.league_create(owner=request.user, **data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueView(ApiView):
    stored_revision = staticmethod(league_revision)
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
