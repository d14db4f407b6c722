"""Games (fixtures): list, detail, the log (download and upload), reports, organizers' results,
forfeits, voids, versions and rejected uploads."""

from __future__ import annotations

import functools
import json
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
)
from rest_framework import parsers, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from core.throttles import SubmissionThrottle
from games.services import MAX_LOG_BYTES
from tournaments.api.base import (
    LIST_ERRORS,
    READ_ERRORS,
    REASON_MAX,
    SUBMIT_ERRORS,
    WRITE_ERRORS,
    ApiView,
    NoteParamsField,
    ReasonSerializer,
    StringListField,
    error_responses,
    fixture_revision,
    league_filter_revision,
)
from tournaments.api.filters import FixtureFilter
from tournaments.api.parsers import (
    PayloadTooLarge,
    RawJSONLogParser,
    RawLog,
    check_declared_size,
    find_unstorable,
)
from tournaments.api.players import PlayerRefSerializer
from tournaments.api.results import (
    RejectedSubmissionSerializer,
    ResultSerializer,
    result_log_response,
    result_queryset,
)
from tournaments.models import (
    Entry,
    Fixture,
    Result,
    Seat,
)
from tournaments.notes import note_fields
from tournaments.permissions import SEE_REJECTIONS, SUBMIT, result_actions
from tournaments.selectors.visibility import visible_fixtures
from tournaments.services import results as result_services
from tournaments.services.errors import ServiceError
from tournaments.services.guards import require_action


@functools.cache
def shared(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance of a serializer without context, whose fields are built once: a nested
    item serialized through it costs its values only (a new ``ModelSerializer`` per item
    rebuilt every field each time: most of a list's time)."""
    return serializer_class()


class SeatSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    colours = StringListField()

    class Meta:
        model = Seat
        fields = ["position", "entry", "player", "colours"]

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, seat: Seat) -> dict[str, Any]:
        return shared(PlayerRefSerializer).to_representation(seat.entry.player)


class StartSerializer(serializers.Serializer):
    colour = serializers.CharField(allow_null=True, help_text="null while an earlier game decides")
    decided_by = serializers.IntegerField(
        allow_null=True, help_text="the number of the game whose result decides the start"
    )
    label = serializers.CharField(help_text='the colour, or "decided by game N"')
    basis = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(
        allow_blank=True,
        help_text="why it starts so, in the request's language (an organizer's words as typed)",
    )
    reason_code = serializers.CharField(
        allow_null=True, help_text="the reason's code (null: typed)"
    )
    reason_params = NoteParamsField()
    rolls = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="the starting-colour die rolls, round by round (colour → roll)",
    )


class FixtureSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    cycle = serializers.SerializerMethodField()
    format = serializers.SerializerMethodField()
    start = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True, read_only=True)
    counted_result = serializers.SerializerMethodField()
    open_result = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = [
            "id",
            "league",
            "cycle",
            "series",
            "round",
            "number",
            "label",
            "format",
            "stage",
            "starting_colour",
            "start",
            "scheduled_at",
            "status",
            "cancel_reason",
            "updated_at",
            "seats",
            "counted_result",
            "open_result",
        ]

    def get_format(self, fixture: Fixture) -> str:
        """The game's format (in a mixed event each game has its own)."""
        return fixture.game_format

    @extend_schema_field(StartSerializer)
    def get_start(self, fixture: Fixture) -> dict[str, Any]:
        depends = fixture.start_depends_on
        return {
            "colour": fixture.starting_colour or None,
            "decided_by": depends.number if depends is not None else None,
            "label": fixture.start_label,
            "basis": fixture.start_basis,
            **note_fields("reason", fixture.start_reason),
            "rolls": fixture.start_rolls,
        }

    def get_cycle(self, fixture: Fixture) -> int | None:
        """The DRR number."""
        return fixture.cycle.number if fixture.cycle_id else None

    def _result(self, fixture: Fixture, states) -> dict[str, Any] | None:
        for result in fixture.results.all():
            if result.state in states:
                return shared(ResultSerializer).to_representation(result)
        return None

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_counted_result(self, fixture: Fixture) -> dict[str, Any] | None:
        return self._result(fixture, (Result.State.CONFIRMED,))

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_open_result(self, fixture: Fixture) -> dict[str, Any] | None:
        """A result awaiting confirmation, or disputed."""
        return self._result(fixture, Result.OPEN_STATES)


class LogUploadSerializer(serializers.Serializer):
    """multipart/form-data: the log as a file (or pasted as text in ``log``)."""

    file = serializers.FileField(required=False)
    log = serializers.CharField(required=False)


class ReportSerializer(serializers.Serializer):
    """What the format records of a game without a log (docs/results.md, "By hand")."""

    winner = serializers.IntegerField(
        required=False,
        help_text="the winner's entry id (2T/2T+/3T; derived from the places in GP and open)",
    )
    counted_pawns = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=8),
        required=False,
        help_text="entry id → counted pawns (2T, 2T+, 3T)",
    )
    completed_colours = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=2),
        required=False,
        help_text="entry id → colours completed (2T+, 3T+)",
    )
    game_time = serializers.FloatField(
        required=False, min_value=0, help_text="the game's duration in seconds (2T+, 3T+)"
    )
    colour_places = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        required=False,
        help_text="colour → finishing place, 1 first, every colour of the game (GP)",
    )
    placings = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=6,
        help_text="entry ids in finishing order (open; 3T optional)",
    )
    count_points = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=1800),
        required=False,
        help_text="entry id → count points of a game the time limit ended (open)",
    )
    reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


def typed_result(data: dict) -> dict[str, Any]:
    """The service's result fields from a validated ``ReportSerializer`` payload (the
    winner, an entry, is resolved by the view)."""
    typed: dict[str, Any] = {}
    for name in ("counted_pawns", "completed_colours", "count_points"):
        if data.get(name) is not None:
            typed[name] = _entry_map(name, data[name])
    for name in ("game_time", "colour_places", "placings"):
        if data.get(name) is not None:
            typed[name] = data[name]
    return typed


class ResultEnterSerializer(ReportSerializer):
    reason = serializers.CharField(max_length=REASON_MAX, help_text="why it is entered")


class ForfeitSerializer(serializers.Serializer):
    loser = serializers.IntegerField(help_text="the forfeiting entry's id")
    reason = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


def fixture_queryset(user) -> QuerySet[Fixture]:
    return (
        visible_fixtures(user)
        .select_related("league", "cycle", "start_depends_on")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.filter(
                    state__in=[Result.State.CONFIRMED, *Result.OPEN_STATES]
                ).select_related(
                    "game_log", "submitted_by", "decided_by", "submitted_via", "decided_via"
                ),
            ),
        )
        .order_by("league_id", "cycle__number", "round", "number", "pk")
    )


class FixtureListView(ApiView):
    stored_revision = staticmethod(league_filter_revision)
    filterset_class = FixtureFilter
    queryset = Fixture.objects.all()

    @extend_schema(
        summary="Games (fixtures) you may see",
        responses={200: FixtureSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request):
        return self.paginated(fixture_queryset(request.user), FixtureSerializer)


class FixtureView(ApiView):
    queryset = Fixture.objects.none()

    def get_fixture(self, pk: int) -> Fixture:
        fixture = fixture_queryset(self.request.user).filter(pk=pk).first()
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

    def _winner(self, fixture: Fixture, data: dict) -> Entry | None:
        if data.get("winner") is None:
            return None
        return self.entry_of(fixture, data["winner"], "winner")

    def created(self, result: Result) -> Response:
        result = result_queryset(self.request.user).get(pk=result.pk)
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)


class FixtureDetailView(FixtureView):
    stored_revision = staticmethod(fixture_revision)

    @extend_schema(summary="A game", responses={200: FixtureSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        return Response(FixtureSerializer(self.get_fixture(pk)).data)


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
        return result_log_response(results[0] if results else None)

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
            "multipart/form-data": LogUploadSerializer,
        },
        responses={
            201: ResultSerializer,
            200: ResultSerializer,
            **SUBMIT_ERRORS,
            **error_responses(413),
        },
    )
    def post(self, request, pk: int):
        fixture = self.get_submit_fixture(pk)
        # who may submit (before the body is read); the versions do not decide it: the
        # game's state is checked under the fixture's lock by the service
        actions = result_actions(request.user, fixture, results=())
        require_action(actions, SUBMIT, who_only=True)
        check_declared_size(request)
        content = self._upload(request)
        _refuse_unstorable_log(content)
        upload = result_services.game_log_upload(
            fixture=fixture, content=content, by=request.user, submitter=actions
        )
        if upload.created:  # the new version as stored, answered without reading it back
            response = Response(
                ResultSerializer(upload.result).data, status=status.HTTP_201_CREATED
            )
        else:  # this very log was submitted before: nothing new
            response = self.created(upload.result)
            response.status_code = status.HTTP_200_OK
        return response

    def get_submit_fixture(self, pk: int) -> Fixture:
        """The game as a submission's first check needs it: its league and its seats with
        their players (not its versions: they are read under the service's lock)."""
        seats = Seat.objects.select_related("entry__player")
        fixture = (
            visible_fixtures(self.request.user)
            .select_related("league")
            .prefetch_related(Prefetch("seats", queryset=seats))
            .filter(pk=pk)
            .first()
        )
        if fixture is None:
            raise Http404(f"there is no game {pk}")
        return fixture

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
        request=ReportSerializer,
        responses={201: ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(ReportSerializer, request)
        result = result_services.result_report(
            fixture=fixture,
            by=request.user,
            winner=self._winner(fixture, data),
            reason=data.get("reason", ""),
            **typed_result(data),
        )
        return self.created(result)


def _entry_map(name: str, raw: dict[str, int]) -> dict[int, int]:
    mapped = {}
    for key, value in raw.items():
        if not (isinstance(key, str) and key.isascii() and key.isdecimal()):
            raise ServiceError(
                f"{name} maps entry ids to numbers; {key!r} is not an entry id", field=name
            )
        mapped[int(key)] = value
    return mapped


class FixtureResultView(FixtureView):
    @extend_schema(
        summary="Enter or correct the result by hand (organizers); it counts at once",
        request=ResultEnterSerializer,
        responses={201: ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(ResultEnterSerializer, request)
        result = result_services.result_enter(
            fixture=fixture,
            by=request.user,
            winner=self._winner(fixture, data),
            reason=data["reason"],
            **typed_result(data),
        )
        return self.created(result)


class FixtureForfeitView(FixtureView):
    @extend_schema(
        summary="Record a forfeit (organizers)",
        request=ForfeitSerializer,
        responses={201: ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(ForfeitSerializer, request)
        result = result_services.forfeit_record(
            fixture=fixture,
            by=request.user,
            loser=self.entry_of(fixture, data["loser"], "loser"),
            reason=data.get("reason", ""),
        )
        return self.created(result)


class FixtureVoidView(FixtureView):
    @extend_schema(
        summary="Void the game's result: the game is open again (organizers)",
        request=ReasonSerializer,
        responses={200: FixtureSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        data = self.input(ReasonSerializer, request)
        result_services.result_void(fixture=fixture, by=request.user, reason=data["reason"])
        return Response(FixtureSerializer(self.get_fixture(pk)).data)


class FixtureResultsView(FixtureView):
    stored_revision = staticmethod(fixture_revision)

    @extend_schema(
        summary="Every result version of a game, newest first",
        responses={200: ResultSerializer(many=True), **LIST_ERRORS},
    )
    def get(self, request, pk: int):
        fixture = self.get_fixture(pk)
        results = result_queryset(request.user).filter(fixture=fixture).order_by("-created_at")
        return self.paginated(results, ResultSerializer)


class FixtureRejectionsView(FixtureView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Rejected submissions of a game (players at the board, organizers)",
        responses={
            200: RejectedSubmissionSerializer(many=True),
            **error_responses(400, 401, 403, 404),
        },
    )
    def get(self, request, pk: int):
        fixture = self.get_fixture(pk)
        require_action(result_actions(request.user, fixture), SEE_REJECTIONS)
        rejections = fixture.rejections.select_related("submitted_by").order_by("-created_at")
        return self.paginated(rejections, RejectedSubmissionSerializer)
