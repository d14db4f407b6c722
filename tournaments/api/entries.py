"""A league's entries: list, enter a player, remove, withdraw."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from core.reasons import WITHDREW
from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    REASON_MAX,
    WRITE_ERRORS,
    ApiView,
    StringListField,
    league_revision,
)
from tournaments.api.filters import EntryFilter
from tournaments.api.players import PlayerRefSerializer
from tournaments.models import (
    Entry,
    Player,
)
from tournaments.selectors.visibility import shown_entries
from tournaments.services import leagues as league_services
from tournaments.services.errors import ServiceError


class EntrySerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    preferred_colours = StringListField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "league",
            "player",
            "preferred_colours",
            "state",
            "withdrawn_at",
            "created_at",
        ]
        read_only_fields = ["state"]


class EntryAddSerializer(serializers.Serializer):
    player = serializers.SlugField(max_length=100, help_text="the player's slug")
    preferred_colours = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, max_length=2
    )


class EntryWithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX, default=WITHDREW)


class CountSerializer(serializers.Serializer):
    forfeited = serializers.IntegerField(help_text="games forfeited by the withdrawal")


class EntryListView(ApiView):
    stored_revision = staticmethod(league_revision)
    filterset_class = EntryFilter
    queryset = Entry.objects.all()

    @extend_schema(
        summary="A league's entries", responses={200: EntrySerializer(many=True), **LIST_ERRORS}
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        entries = shown_entries(request.user, league).select_related("player", "league")
        return self.paginated(entries.order_by("player__name", "pk"), EntrySerializer)

    @extend_schema(
        summary="Enter a player (organizers; draft or registration only)",
        request=EntryAddSerializer,
        responses={201: EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(EntryAddSerializer, request)
        player = Player.objects.filter(slug=data["player"]).first()
        if player is None:
            raise ServiceError(f"there is no player {data['player']!r}", field="player")
        entry = league_services.entry_add(
            league=league,
            player=player,
            by=request.user,
            preferred_colours=data.get("preferred_colours"),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryLookup:
    """Finds an entry of a league the user may see (404 otherwise)."""

    def get_entry(self, slug: str, entry_id: int) -> Entry:
        league = self.visible_league(slug)
        entry = league.entries.select_related("player", "league").filter(pk=entry_id).first()
        if entry is None:
            raise Http404(f"{league.name} has no entry {entry_id}")
        return entry


class EntryDetailView(EntryLookup, ApiView):
    stored_revision = staticmethod(league_revision)

    @extend_schema(summary="An entry", responses={200: EntrySerializer, **READ_ERRORS})
    def get(self, request, slug: str, entry_id: int):
        return Response(EntrySerializer(self.get_entry(slug, entry_id)).data)

    @extend_schema(
        summary="Remove an entry that has no games (organizers)",
        responses={204: None, **WRITE_ERRORS},
    )
    def delete(self, request, slug: str, entry_id: int):
        league_services.entry_remove(entry=self.get_entry(slug, entry_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryWithdrawView(EntryLookup, ApiView):
    # POST only: the withdrawal (the entry itself is GET/DELETE on entry-detail)
    @extend_schema(
        summary="Withdraw a player: their open games are forfeited (organizers, the player)",
        request=EntryWithdrawSerializer,
        responses={200: CountSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str, entry_id: int):
        entry = self.get_entry(slug, entry_id)
        data = self.input(EntryWithdrawSerializer, request)
        count = league_services.entry_withdraw(entry=entry, by=request.user, reason=data["reason"])
        return Response({"forfeited": count})
