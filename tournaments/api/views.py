"""API v1 views. Thin: reads go through the visibility selectors of ``access.py`` (a private
league's data is 404 to outsiders), writes call a service (``tournaments/services``), and
every error comes out in the one format of ``errors.py``."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, parsers, status
from rest_framework.generics import GenericAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.services import MAX_LOG_BYTES
from tournaments import exports
from tournaments.api import access
from tournaments.api import serializers as s
from tournaments.api.auth import (
    AUTHENTICATION_CLASSES,
    LOGIN_THROTTLES,
    SubmissionThrottle,
    token_auth_available,
)
from tournaments.api.errors import api_exception_handler, error_body
from tournaments.api.filters import EntryFilter, FixtureFilter, LeagueFilter, PlayerFilter
from tournaments.api.parsers import (
    PayloadTooLarge,
    RawJSONLogParser,
    RawLog,
    check_declared_size,
    find_unstorable,
    refuse_unstorable,
)
from tournaments.api.schema import ApiAutoSchema
from tournaments.models import (
    Cycle,
    CycleSeed,
    Entry,
    Fixture,
    League,
    Player,
    Result,
    Seat,
    Series,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.permissions import is_organizer, seat_of
from tournaments.services import leagues as league_services
from tournaments.services import playoffs as playoff_services
from tournaments.services import results as result_services
from tournaments.services import schedule as schedule_services
from tournaments.services.errors import NotAllowed, ServiceError

JSON_BODY_LIMIT = 256 * 1024


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(s.ErrorSerializer) for code in codes}


READ_ERRORS = _errors(404)
LIST_ERRORS = _errors(400, 404)  # 400: a bad filter value; 404: no such page (or league)
WRITE_ERRORS = _errors(400, 401, 403, 404)
SUBMIT_ERRORS = _errors(400, 401, 403, 404, 429)


class TokenAuthUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = "token authentication is not enabled on this server"


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with a size limit, and too-deeply-nested input as a 400."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(JSON_BODY_LIMIT + 1) if stream is not None else b""
        if len(raw) > JSON_BODY_LIMIT:
            raise exceptions.ParseError(
                f"the request body is larger than {JSON_BODY_LIMIT:,} bytes"
            )
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=json_strict_constant)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        refuse_unstorable(data)
        return data


def json_strict_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class Metadata(SimpleMetadata):
    """OPTIONS answers: name, renderers and parsers. Input descriptions are in the OpenAPI
    schema (/api/schema/), not here."""

    def determine_actions(self, request, view):
        return {}


class ApiView(GenericAPIView):
    # Base of every v1 view: session + token authentication, one error format, JSON.
    schema = ApiAutoSchema()
    metadata_class = Metadata
    authentication_classes = AUTHENTICATION_CLASSES
    permission_classes = [IsAuthenticatedOrReadOnly]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer]
    parser_classes = [JSONParser]
    pagination_class = Pagination
    filter_backends = [DjangoFilterBackend]
    throttle_classes: list = []

    def get_exception_handler(self):
        return api_exception_handler

    def input(self, serializer_class, request: Request) -> dict[str, Any]:
        serializer = serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def visible_league(self, slug: str) -> League:
        league = access.visible_leagues(self.request.user).filter(slug=slug).first()
        if league is None:
            raise Http404(f"there is no league {slug!r}")
        return league

    def paginated(self, queryset, serializer_class) -> Response:
        queryset = self.filter_queryset(queryset)
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(serializer_class(page, many=True).data)


class DownloadView(ApiView):
    # Answers with a file (CSV, iCalendar, JSON); errors are JSON whatever the client accepts.

    renderer_classes = [JSONRenderer]

    def perform_content_negotiation(self, request, force=False):
        return (JSONRenderer(), JSONRenderer.media_type)


@csrf_exempt  # it changes nothing; a 404 beats a CSRF failure page
def endpoint_not_found(request, *args, **kwargs) -> JsonResponse:
    return JsonResponse(
        error_body("not_found", f"there is no API endpoint {request.path}"), status=404
    )


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _league_queryset(user) -> QuerySet[League]:
    return (
        access.visible_leagues(user)
        .select_related("owner")
        .prefetch_related("organizers")
        .order_by("-created_at", "pk")
    )


def _fixture_queryset(user) -> QuerySet[Fixture]:
    return (
        access.visible_fixtures(user)
        .select_related("league", "cycle")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.filter(
                    state__in=[Result.State.CONFIRMED, *Result.OPEN_STATES]
                ).select_related("game_log", "submitted_by", "decided_by"),
            ),
        )
        .order_by("league_id", "cycle__number", "round", "number", "pk")
    )


def _result_queryset(user) -> QuerySet[Result]:
    return access.visible_results(user).select_related("game_log", "submitted_by", "decided_by")


# --- accounts --------------------------------------------------------------------------------


class AuthTokenView(ApiView):
    # Tokens for bots and scripts.

    permission_classes = [AllowAny]
    throttle_classes = LOGIN_THROTTLES

    def _token_model(self):
        if not token_auth_available():
            raise TokenAuthUnavailable()
        from rest_framework.authtoken.models import Token

        return Token

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get your API token (log in with user name and password)",
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer, **_errors(400, 429)},
        auth=[],
    )
    def post(self, request):
        data = self.input(s.TokenRequestSerializer, request)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ServiceError("unable to log in with this user name and password")
        token, _ = self._token_model().objects.get_or_create(user=user)
        return Response({"token": token.key})

    @extend_schema(
        operation_id="auth_token_destroy",
        summary="Revoke your API token",
        request=None,
        responses={204: None, **_errors(401)},
    )
    def delete(self, request):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        self._token_model().objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Who am I", responses={200: s.MeSerializer, **_errors(401)})
    def get(self, request):
        user = request.user
        player = Player.objects.filter(user=user).first()
        organized = League.objects.filter(owner=user) | League.objects.filter(
            pk__in=League.organizers.through.objects.filter(user=user).values("league_id")
        )
        return Response(
            {
                "username": user.get_username(),
                "is_staff": user.is_staff,
                "player": s.PlayerSerializer(player).data if player else None,
                "organized_leagues": sorted(set(organized.values_list("slug", flat=True))),
            }
        )


# --- players ---------------------------------------------------------------------------------


class PlayerListView(ApiView):
    filterset_class = PlayerFilter
    queryset = Player.objects.all()

    @extend_schema(
        summary="List players", responses={200: s.PlayerSerializer(many=True), **LIST_ERRORS}
    )
    def get(self, request):
        return self.paginated(Player.objects.order_by("name", "pk"), s.PlayerSerializer)

    @extend_schema(
        summary="Create a player (your own profile, or a player without an account)",
        request=s.PlayerCreateSerializer,
        responses={201: s.PlayerSerializer, **WRITE_ERRORS},
    )
    def post(self, request):
        data = self.input(s.PlayerCreateSerializer, request)
        access.require_can_create_player(request.user, link_to_me=data["link_to_me"])
        player = league_services.player_create(
            name=data["name"],
            user=request.user if data["link_to_me"] else None,
            preferred_colours=data.get("preferred_colours"),
        )
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(ApiView):
    queryset = Player.objects.none()

    @extend_schema(summary="A player", responses={200: s.PlayerSerializer, **READ_ERRORS})
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        return Response(s.PlayerSerializer(player).data)


class PlayerScheduleView(DownloadView):
    queryset = Player.objects.none()

    @extend_schema(
        summary="A player's games as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        content = exports.player_schedule_ics(player, access.visible_fixtures(request.user))
        return _download(content, "text/calendar; charset=utf-8", f"{player.slug}.ics")


# --- leagues ---------------------------------------------------------------------------------


class LeagueListView(ApiView):
    filterset_class = LeagueFilter
    queryset = League.objects.all()

    @extend_schema(
        summary="List the leagues you may see",
        responses={200: s.LeagueSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        return self.paginated(_league_queryset(request.user), s.LeagueSerializer)

    @extend_schema(
        summary="Create a league (you become its owner)",
        request=s.LeagueCreateSerializer,
        responses={201: s.LeagueSerializer, **_errors(400, 401)},
    )
    def post(self, request):
        data = self.input(s.LeagueCreateSerializer, request)
        league = league_services.league_create(owner=request.user, **data)
        return Response(s.LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueView(ApiView):
    queryset = League.objects.none()
    lookup_field = "slug"


class LeagueDetailView(LeagueView):
    @extend_schema(summary="A league", responses={200: s.LeagueSerializer, **READ_ERRORS})
    def get(self, request, slug: str):
        return Response(s.LeagueSerializer(self.visible_league(slug)).data)


class LeagueStatusView(LeagueView):
    @extend_schema(
        summary="Change a league's status (organizers)",
        description="draft → registration → running → playoffs → finished "
        "(registration may go back to draft).",
        request=s.LeagueStatusSerializer,
        responses={200: s.LeagueSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(s.LeagueStatusSerializer, request)
        league = league_services.league_set_status(
            league=league, status=data["status"], by=request.user
        )
        return Response(s.LeagueSerializer(league).data)


class LeagueOrganizerView(LeagueView):
    @extend_schema(
        summary="Add a co-organizer (organizers)",
        request=s.OrganizerAddSerializer,
        responses={200: s.LeagueSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(s.OrganizerAddSerializer, request)
        user = get_user_model().objects.filter(username=data["username"], is_active=True).first()
        if user is None:
            raise ServiceError(f"there is no user {data['username']!r}", field="username")
        league_services.league_add_organizer(league=league, user=user, by=request.user)
        return Response(s.LeagueSerializer(league).data)


class EntryListView(ApiView):
    filterset_class = EntryFilter
    queryset = Entry.objects.all()

    @extend_schema(
        summary="A league's entries", responses={200: s.EntrySerializer(many=True), **LIST_ERRORS}
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        entries = league.entries.select_related("player", "league").order_by("player__name", "pk")
        return self.paginated(entries, s.EntrySerializer)

    @extend_schema(
        summary="Enter a player (organizers; draft or registration only)",
        request=s.EntryAddSerializer,
        responses={201: s.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(s.EntryAddSerializer, request)
        player = Player.objects.filter(slug=data["player"]).first()
        if player is None:
            raise ServiceError(f"there is no player {data['player']!r}", field="player")
        entry = league_services.entry_add(
            league=league,
            player=player,
            by=request.user,
            preferred_colours=data.get("preferred_colours"),
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(ApiView):
    def get_entry(self, slug: str, entry_id: int) -> Entry:
        league = self.visible_league(slug)
        entry = league.entries.select_related("player", "league").filter(pk=entry_id).first()
        if entry is None:
            raise Http404(f"{league.name} has no entry {entry_id}")
        return entry

    @extend_schema(summary="An entry", responses={200: s.EntrySerializer, **READ_ERRORS})
    def get(self, request, slug: str, entry_id: int):
        return Response(s.EntrySerializer(self.get_entry(slug, entry_id)).data)

    @extend_schema(
        summary="Remove an entry that has no games (organizers)",
        responses={204: None, **WRITE_ERRORS},
    )
    def delete(self, request, slug: str, entry_id: int):
        league_services.entry_remove(entry=self.get_entry(slug, entry_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryWithdrawView(EntryDetailView):
    @extend_schema(
        summary="Withdraw a player: their open games are forfeited (organizers)",
        request=s.EntryWithdrawSerializer,
        responses={200: s.CountSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str, entry_id: int):
        entry = self.get_entry(slug, entry_id)
        data = self.input(s.EntryWithdrawSerializer, request)
        count = league_services.entry_withdraw(entry=entry, by=request.user, reason=data["reason"])
        return Response({"forfeited": count})


class CycleView(ApiView):
    queryset = Cycle.objects.none()

    def _cycles(self, league: League):
        return league.cycles.select_related("league").prefetch_related(
            Prefetch("seeds", queryset=CycleSeed.objects.select_related("entry__player"))
        )


class CycleListView(CycleView):
    @extend_schema(
        summary="A league's DRRs with their seeding",
        responses={200: s.CycleSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return self.paginated(self._cycles(league).order_by("number"), s.CycleSerializer)

    @extend_schema(
        summary="Seed and schedule the next DRR (organizers)",
        description="Seeding by die roll: send the rolls recorded at the table, or none to let "
        "the platform roll (reproducibly, from `seed`). Creates every game of the DRR with its "
        "seats, colours and starting colour; a draft or registration league starts running.",
        request=s.CycleCreateSerializer,
        responses={201: s.CycleSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        data = self.input(s.CycleCreateSerializer, request)
        cycle = schedule_services.cycle_create(
            league=league,
            by=request.user,
            rolls=data.get("rolls"),
            seed=data.get("seed"),
            late_order=data.get("late_order"),
        )
        cycle = self._cycles(league).get(pk=cycle.pk)
        return Response(s.CycleSerializer(cycle).data, status=status.HTTP_201_CREATED)


class CycleDetailView(CycleView):
    @extend_schema(summary="One DRR", responses={200: s.CycleSerializer, **READ_ERRORS})
    def get(self, request, slug: str, number: int):
        league = self.visible_league(slug)
        cycle = self._cycles(league).filter(number=number).first()
        if cycle is None:
            raise Http404(f"{league.name} has no DRR {number}")
        return Response(s.CycleSerializer(cycle).data)


class CycleLateOrderView(CycleView):
    @extend_schema(
        summary="Three players: reorder G4–G6 of a DRR before they are played (organizers)",
        request=s.LateOrderSerializer,
        responses={200: s.CycleSerializer, **WRITE_ERRORS},
    )
    def post(self, request, slug: str, number: int):
        league = self.visible_league(slug)
        cycle = self._cycles(league).filter(number=number).first()
        if cycle is None:
            raise Http404(f"{league.name} has no DRR {number}")
        data = self.input(s.LateOrderSerializer, request)
        schedule_services.cycle_reorder_late_games(
            cycle=cycle, by=request.user, late_order=data["late_order"]
        )
        return Response(s.CycleSerializer(self._cycles(league).get(pk=cycle.pk)).data)


class SeriesListView(ApiView):
    queryset = Series.objects.none()

    @extend_schema(
        summary="A league's playoff series",
        responses={200: s.SeriesSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        series = (
            league.series.select_related("league", "higher__player", "lower__player")
            .prefetch_related("fixtures")
            .order_by("round", "slot")
        )
        return self.paginated(series, s.SeriesSerializer)


class PlayoffsView(LeagueView):
    @extend_schema(
        summary="Generate the playoffs from the final standings (organizers)",
        description="Seeds the league's playoff series (its `playoffs` setting: XLeague or a "
        "bracket) from the settled table, applies the head-start rule and schedules the first "
        "games; the league moves to playoffs. Series then advance by themselves as results "
        "are confirmed.",
        request=None,
        responses={201: s.SeriesSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, slug: str):
        league = self.visible_league(slug)
        series = playoff_services.playoffs_generate(league=league, by=request.user)
        series = (
            Series.objects.filter(pk__in=[item.pk for item in series])
            .select_related("league", "higher__player", "lower__player")
            .prefetch_related("fixtures")
            .order_by("round", "slot")
        )
        return Response(s.SeriesSerializer(series, many=True).data, status=status.HTTP_201_CREATED)


class SeriesDetailView(ApiView):
    queryset = Series.objects.none()

    @extend_schema(summary="A playoff series", responses={200: s.SeriesSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        series = get_object_or_404(
            access.visible_series(request.user).select_related(
                "league", "higher__player", "lower__player"
            ),
            pk=pk,
        )
        return Response(s.SeriesSerializer(series).data)


class StandingsView(ApiView):
    queryset = StandingsSnapshot.objects.none()

    @extend_schema(
        summary="A league's standings (the newest snapshot of each stage)",
        parameters=[OpenApiParameter("stage", str, description='e.g. "league"')],
        responses={200: s.StandingsSnapshotSerializer(many=True), **READ_ERRORS},
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
        return Response(s.StandingsSnapshotSerializer(snapshots, many=True).data)


class StandingsCsvView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="Standings as CSV",
        parameters=[OpenApiParameter("stage", str, description='default "league"')],
        responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        stage = request.query_params.get("stage") or "league"
        snapshot = league.snapshots.filter(stage=stage).first()
        return _download(
            exports.standings_csv(snapshot),
            "text/csv; charset=utf-8",
            f"{league.slug}-standings.csv",
        )


class LeagueScheduleView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="A league's schedule as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return _download(
            exports.league_schedule_ics(league),
            "text/calendar; charset=utf-8",
            f"{league.slug}.ics",
        )


class LeagueArchiveView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="The whole league as a JSON archive",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        content = json.dumps(exports.league_archive(league), ensure_ascii=False, indent=1)
        return _download(content, "application/json", f"{league.slug}-archive.json")


# --- fixtures and results --------------------------------------------------------------------


class FixtureListView(ApiView):
    filterset_class = FixtureFilter
    queryset = Fixture.objects.all()

    @extend_schema(
        summary="Games (fixtures) you may see",
        responses={200: s.FixtureSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        return self.paginated(_fixture_queryset(request.user), s.FixtureSerializer)


class FixtureView(ApiView):
    queryset = Fixture.objects.none()

    def get_fixture(self, pk: int) -> Fixture:
        fixture = _fixture_queryset(self.request.user).filter(pk=pk).first()
        if fixture is None:
            raise Http404(f"there is no game {pk}")
        return fixture

    def entry_of(self, fixture: Fixture, entry_id: int, field: str) -> Entry:
        entry = Entry.objects.filter(pk=entry_id, league_id=fixture.league_id).first()
        if entry is None:
            raise ServiceError(
                f"entry {entry_id} is not one of the players at this game", field=field
            )
        return entry

    def created(self, result: Result) -> Response:
        result = _result_queryset(self.request.user).get(pk=result.pk)
        return Response(s.ResultSerializer(result).data, status=status.HTTP_201_CREATED)


class FixtureDetailView(FixtureView):
    @extend_schema(summary="A game", responses={200: s.FixtureSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        return Response(s.FixtureSerializer(self.get_fixture(pk)).data)


def _log_response(result: Result | None) -> HttpResponse:
    if result is None or result.game_log is None:
        raise Http404("this game has no game log")
    log = result.game_log
    response = HttpResponse(log.content, content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="game-{result.fixture_id}.json"'
    response["ETag"] = f'"{log.sha256}"'
    return response


class FixtureLogView(FixtureView):
    parser_classes = [RawJSONLogParser, parsers.MultiPartParser]
    throttle_classes = [SubmissionThrottle]

    def perform_content_negotiation(self, request, force=False):
        return (JSONRenderer(), JSONRenderer.media_type)

    @extend_schema(
        summary="The game's log (the counted result's, else the one awaiting confirmation)",
        description="The `maedn-log/1` JSON exactly as it was uploaded.",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        fixture = self.get_fixture(pk)
        results = sorted(
            (r for r in fixture.results.all() if r.game_log_id),
            key=lambda r: (r.state != Result.State.CONFIRMED, r.created_at),
        )
        return _log_response(results[0] if results else None)

    @extend_schema(
        summary="Submit the game's log (players at the board, organizers)",
        description="Send the `maedn-log/1` JSON as the request body (`application/json`), or "
        "as a file in the field `file` of a `multipart/form-data` form. The log is validated "
        "by the engine and checked against the game (players, colours, starting colour, "
        "board, rules). 201: a new result (pending until the opponent confirms, unless the "
        "league needs no confirmation or you organize it); 200: this very log was submitted "
        "before; 400: the log was rejected, `error.event` names the first offending event.",
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": s.LogUploadSerializer,
        },
        responses={
            201: s.ResultSerializer,
            200: s.ResultSerializer,
            **SUBMIT_ERRORS,
            **_errors(413),
        },
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        if (
            not is_organizer(request.user, fixture.league)
            and seat_of(request.user, fixture) is None
        ):
            raise NotAllowed("only the players at this game's board or its organizers may do this")
        check_declared_size(request)
        content = self._upload(request)
        _refuse_unstorable_log(content)
        before = set(fixture.results.values_list("pk", flat=True))
        result = result_services.game_log_submit(
            fixture=fixture, content=content, user=request.user
        )
        response = self.created(result)
        if result.pk in before:
            response.status_code = status.HTTP_200_OK
        return response

    def _upload(self, request) -> bytes:
        data = request.data
        if isinstance(data, RawLog):
            return data.content
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size > MAX_LOG_BYTES:
                raise PayloadTooLarge()
            return upload.read()
        text = data.get("log") if hasattr(data, "get") else None
        return text.encode("utf-8") if isinstance(text, str) else b""


def _refuse_unstorable_log(content: bytes) -> None:
    """A log with a NUL character or an unpaired surrogate in a string cannot be stored (nor
    its rejection recorded) in PostgreSQL: refuse it here. Anything that does not parse is
    left to the service, which says what is wrong."""
    try:
        data = json.loads(content.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return
    if problem := find_unstorable(data):
        raise ServiceError(f"the log cannot be stored: {problem}; remove it and upload again")


class FixtureReportView(FixtureView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Report an over-the-board result without a log (players at the board)",
        request=s.ReportSerializer,
        responses={201: s.ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(s.ReportSerializer, request)
        result = result_services.result_report(
            fixture=fixture,
            user=request.user,
            winner=self.entry_of(fixture, data["winner"], "winner"),
            counted_pawns=_counted_pawns(data.get("counted_pawns")),
            reason=data.get("reason", ""),
        )
        return self.created(result)


def _counted_pawns(raw: dict[str, int] | None) -> dict[int, int] | None:
    if raw is None:
        return None
    counted = {}
    for key, value in raw.items():
        if not str(key).isdigit():
            raise ServiceError(
                f"counted_pawns maps entry ids to pawns; {key!r} is not an entry id",
                field="counted_pawns",
            )
        counted[int(key)] = value
    return counted


class FixtureResultView(FixtureView):
    @extend_schema(
        summary="Enter or correct the result by hand (organizers); it counts at once",
        request=s.ResultEnterSerializer,
        responses={201: s.ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(s.ResultEnterSerializer, request)
        result = result_services.result_enter(
            fixture=fixture,
            user=request.user,
            winner=self.entry_of(fixture, data["winner"], "winner"),
            counted_pawns=_counted_pawns(data.get("counted_pawns")),
            reason=data["reason"],
        )
        return self.created(result)


class FixtureForfeitView(FixtureView):
    @extend_schema(
        summary="Record a forfeit (organizers)",
        request=s.ForfeitSerializer,
        responses={201: s.ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(s.ForfeitSerializer, request)
        result = result_services.forfeit_record(
            fixture=fixture,
            user=request.user,
            loser=self.entry_of(fixture, data["loser"], "loser"),
            reason=data.get("reason", ""),
        )
        return self.created(result)


class FixtureVoidView(FixtureView):
    @extend_schema(
        summary="Void the game's result: the game is open again (organizers)",
        request=s.ReasonSerializer,
        responses={200: s.FixtureSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(s.ReasonSerializer, request)
        result_services.result_void(fixture=fixture, user=request.user, reason=data["reason"])
        return Response(s.FixtureSerializer(self.get_fixture(pk)).data)


class FixtureResultsView(FixtureView):
    @extend_schema(
        summary="Every result version of a game, newest first",
        responses={200: s.ResultSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, pk: int):
        fixture = self.get_fixture(pk)
        results = _result_queryset(request.user).filter(fixture=fixture).order_by("-created_at")
        return self.paginated(results, s.ResultSerializer)


class FixtureRejectionsView(FixtureView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Rejected submissions of a game (players at the board, organizers)",
        responses={200: s.RejectedSubmissionSerializer(many=True), **_errors(400, 401, 403, 404)},
    )
    def get(self, request, pk: int):
        fixture = self.get_fixture(pk)
        if (
            not is_organizer(request.user, fixture.league)
            and seat_of(request.user, fixture) is None
        ):
            raise NotAllowed("only the players at this game's board and its organizers see this")
        rejections = fixture.rejections.select_related("submitted_by").order_by("-created_at")
        return self.paginated(rejections, s.RejectedSubmissionSerializer)


class ResultView(ApiView):
    queryset = Result.objects.none()

    def get_result(self, pk: int) -> Result:
        result = _result_queryset(self.request.user).filter(pk=pk).first()
        if result is None:
            raise Http404(f"there is no result {pk}")
        return result

    def answer(self, result: Result) -> Response:
        return Response(s.ResultSerializer(self.get_result(result.pk)).data)


class ResultDetailView(ResultView):
    @extend_schema(summary="A result version", responses={200: s.ResultSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        return Response(s.ResultSerializer(self.get_result(pk)).data)


class ResultLogView(ResultView):
    renderer_classes = [JSONRenderer]

    def perform_content_negotiation(self, request, force=False):
        return (JSONRenderer(), JSONRenderer.media_type)

    @extend_schema(
        summary="The result's game log, exactly as uploaded",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        return _log_response(self.get_result(pk))


class ResultConfirmView(ResultView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Confirm a pending result (the opponent, organizers)",
        request=None,
        responses={200: s.ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        result = result_services.result_confirm(result=self.get_result(pk), user=request.user)
        return self.answer(result)


class ResultDisputeView(ResultView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Dispute a pending result (players at the board)",
        request=s.ReasonSerializer,
        responses={200: s.ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        result = self.get_result(pk)
        data = self.input(s.ReasonSerializer, request)
        result = result_services.result_dispute(
            result=result, user=request.user, reason=data["reason"]
        )
        return self.answer(result)


class ResultResolveView(ResultView):
    @extend_schema(
        summary="Resolve a disputed or pending result: accept or reject (organizers)",
        request=s.ResolveSerializer,
        responses={200: s.ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        result = self.get_result(pk)
        data = self.input(s.ResolveSerializer, request)
        result = result_services.result_resolve(
            result=result, user=request.user, accept=data["accept"], note=data.get("note", "")
        )
        return self.answer(result)
