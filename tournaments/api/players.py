"""Players: list, create (your own profile, or a player without an account), detail, and
sharing a player without an account with every organizer."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
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
    StringListField,
    player_revision,
    players_list_revision,
)
from tournaments.api.filters import PlayerFilter
from tournaments.models import (
    Player,
)
from tournaments.permissions import may_share
from tournaments.services import players as player_services
from tournaments.services.errors import NotAllowed

LABEL_HELP = (
    "the name as pages show it: with what tells it apart where another player's name "
    'looks the same ("Ida (@ida_k)", "Ida (olga’s player)"), else the name; in the '
    "request's language"
)


class PlayerRefSerializer(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True, help_text=LABEL_HELP)

    class Meta:
        model = Player
        fields = ["slug", "name", "label"]


class PlayerSerializer(serializers.ModelSerializer):
    preferred_colours = StringListField()
    has_account = serializers.SerializerMethodField()
    label = serializers.CharField(read_only=True, help_text=LABEL_HELP)

    class Meta:
        model = Player
        fields = [
            "slug",
            "name",
            "label",
            "preferred_colours",
            "has_account",
            "shared",
            "created_at",
        ]

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


class PlayerListView(ApiView):
    stored_revision = staticmethod(players_list_revision)
    filterset_class = PlayerFilter
    queryset = Player.objects.all()

    @extend_schema(
        summary="List players", responses={200: PlayerSerializer(many=True), **LIST_ERRORS}
    )
    def get(self, request):
        return self.paginated(Player.objects.order_by("name", "pk"), PlayerSerializer)

    @extend_schema(
        summary="Create a player (your own profile, or a player without an account)",
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **WRITE_ERRORS},
    )
    def post(self, request):
        data = self.input(PlayerCreateSerializer, request)
        player = player_services.player_create_by(
            by=request.user,
            name=data["name"],
            link_to_me=data["link_to_me"],
            preferred_colours=data.get("preferred_colours"),
        )
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(ApiView):
    stored_revision = staticmethod(player_revision)
    queryset = Player.objects.none()

    @extend_schema(summary="A player", responses={200: PlayerSerializer, **READ_ERRORS})
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        return Response(PlayerSerializer(player).data)


class PlayerSharedSerializer(serializers.Serializer):
    shared = serializers.BooleanField(
        help_text="true: every organizer may enter this player without an account"
    )


class PlayerSharedView(ApiView):
    queryset = Player.objects.none()

    @extend_schema(
        summary="Share a player without an account with every organizer, or stop "
        "(its creator or staff)",
        request=PlayerSharedSerializer,
        responses={200: PlayerSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        if not may_share(request.user, player) and player.user_id is None:
            raise NotAllowed(
                f"only the organizer who created {player.name} (or staff) may do this"
            )  # before the body is validated
        data = self.input(PlayerSharedSerializer, request)
        player = player_services.player_set_shared(
            player=player, by=request.user, shared=data["shared"]
        )
        return Response(PlayerSerializer(player).data)
