"""Result versions: detail, the log, confirm, dispute, resolve."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from core.throttles import SubmissionThrottle
from games.models import GameLog
from tournaments.api.base import (
    READ_ERRORS,
    REASON_MAX,
    SUBMIT_ERRORS,
    WRITE_ERRORS,
    ApiView,
    IntegerListField,
    IntegerMapField,
    NoteCodeField,
    NoteField,
    NoteParamsField,
    NumberMapField,
    ObjectField,
    ReasonSerializer,
    RulesField,
    StringListField,
    result_revision,
    username_of,
)
from tournaments.models import (
    RejectedSubmission,
    Result,
)
from tournaments.selectors.visibility import (
    visible_results,
)
from tournaments.services import results as result_services
from tournaments.services.errors import error_text


class ResultSerializer(serializers.ModelSerializer):
    submitted_by = serializers.SerializerMethodField()
    decided_by = serializers.SerializerMethodField()
    submitted_through_link = serializers.SerializerMethodField(
        help_text="the entry whose private result link sent this result (no account), or null"
    )
    decided_through_link = serializers.SerializerMethodField(
        help_text="the entry whose private result link confirmed or disputed it, or null"
    )
    game_log = serializers.SerializerMethodField()
    placings = IntegerListField()
    colour_places = IntegerListField()
    both_finished = IntegerListField()
    counted_pawns = IntegerMapField()
    completed_colours = IntegerMapField()
    captures = IntegerMapField()
    count_points = NumberMapField()
    reason = NoteField(
        help_text="why it was entered, forfeited, voided, …: in the request's "
        "language when the platform wrote it, else as typed"
    )
    reason_code = NoteCodeField(source="reason", help_text="the reason's code (null: typed)")
    reason_params = NoteParamsField(source="reason")
    decision_note = NoteField(help_text="the confirmation's or dispute's note, worded as reason")
    decision_note_code = NoteCodeField(
        source="decision_note", help_text="the decision note's code (null: typed)"
    )
    decision_note_params = NoteParamsField(source="decision_note")

    class Meta:
        model = Result
        fields = [
            "id",
            "fixture",
            "source",
            "state",
            "winner",
            "placings",
            "colour_places",
            "both_finished",
            "counted_pawns",
            "completed_colours",
            "captures",
            "count_points",
            "game_time",
            "forfeit_loser",
            "verified",
            "submitted_by",
            "submitted_through_link",
            "reason",
            "reason_code",
            "reason_params",
            "created_at",
            "decided_by",
            "decided_through_link",
            "decided_at",
            "decision_note",
            "decision_note_code",
            "decision_note_params",
            "game_log",
        ]

    def get_submitted_by(self, result: Result) -> str | None:
        return username_of(result.submitted_by)

    def get_decided_by(self, result: Result) -> str | None:
        return username_of(result.decided_by)

    def get_submitted_through_link(self, result: Result) -> int | None:
        return result.submitted_via.entry_id if result.submitted_via_id else None

    def get_decided_through_link(self, result: Result) -> int | None:
        return result.decided_via.entry_id if result.decided_via_id else None

    def get_game_log(self, result: Result) -> str | None:
        """The SHA-256 of the result's game log (download: /results/{id}/log/)."""
        return result.game_log.sha256 if result.game_log_id else None


class RejectedSubmissionSerializer(serializers.ModelSerializer):
    """``error`` in English as stored; ``message`` in the request's language, with its
    code as ``reason`` (null for an uncoded or older refusal)."""

    submitted_by = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()
    message = serializers.SerializerMethodField()

    class Meta:
        model = RejectedSubmission
        fields = [
            "id",
            "fixture",
            "submitted_by",
            "created_at",
            "sha256",
            "size",
            "event",
            "error",
            "reason",
            "message",
        ]

    def get_submitted_by(self, rejection: RejectedSubmission) -> str | None:
        return username_of(rejection.submitted_by)

    def get_reason(self, rejection: RejectedSubmission) -> str | None:
        return rejection.error_code or None

    def get_message(self, rejection: RejectedSubmission) -> str:
        return error_text(rejection.error_code, rejection.error_params or {}, rejection.error)


class GameLogInfoSerializer(serializers.ModelSerializer):
    rules = RulesField()
    players = ObjectField()
    placings = StringListField()
    pawns_home = IntegerMapField()
    captures = IntegerMapField()

    class Meta:
        model = GameLog
        fields = [
            "sha256",
            "size",
            "board",
            "rules",
            "players",
            "first",
            "complete",
            "events",
            "placings",
            "winner",
            "pawns_home",
            "captures",
            "game_time",
            "uploaded_at",
        ]


def result_queryset(user) -> QuerySet[Result]:
    return visible_results(user).select_related(
        "game_log", "submitted_by", "decided_by", "submitted_via", "decided_via"
    )


def result_log_response(result: Result | None) -> HttpResponse:
    if result is None or result.game_log is None:
        raise Http404("this game has no game log")
    return log_response(result.fixture_id, result.game_log.content, result.game_log.sha256)


def log_response(fixture_id: int, content: str | None, sha256: str | None) -> HttpResponse:
    """A game log exactly as uploaded, its SHA-256 the ETag."""
    if content is None:
        raise Http404("this game has no game log")
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="game-{fixture_id}.json"'
    response["ETag"] = f'"{sha256}"'
    return response


class ResolveSerializer(serializers.Serializer):
    accept = serializers.BooleanField(help_text="true: the result counts; false: rejected")
    note = serializers.CharField(max_length=REASON_MAX, required=False, allow_blank=True)


class ResultView(ApiView):
    queryset = Result.objects.none()

    def get_result(self, pk: int) -> Result:
        result = result_queryset(self.request.user).filter(pk=pk).first()
        if result is None:
            raise Http404(f"there is no result {pk}")
        return result

    def answer(self, result: Result) -> Response:
        return Response(ResultSerializer(self.get_result(result.pk)).data)


class ResultDetailView(ResultView):
    stored_revision = staticmethod(result_revision)

    @extend_schema(summary="A result version", responses={200: ResultSerializer, **READ_ERRORS})
    def get(self, request, pk: int):
        return Response(ResultSerializer(self.get_result(pk)).data)


class ResultLogView(ResultView):
    renderer_classes = [JSONRenderer]

    def perform_content_negotiation(self, request, force=False):
        return (JSONRenderer(), JSONRenderer.media_type)

    @extend_schema(
        summary="The result's game log, exactly as uploaded",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        # the log's three columns only: the result's nine-table read took PostgreSQL 2-15 ms
        # to plan (0.3 ms to run) on every download
        row = (
            visible_results(request.user)
            .filter(pk=pk)
            .values_list("fixture_id", "game_log__content", "game_log__sha256")
            .first()
        )
        if row is None:
            raise Http404(f"there is no result {pk}")
        return log_response(*row)


class ResultConfirmView(ResultView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Confirm a pending result (the opponent, organizers)",
        request=None,
        responses={200: ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        result = result_services.result_confirm(result=self.get_result(pk), by=request.user)
        return self.answer(result)


class ResultDisputeView(ResultView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Dispute a pending result (players at the board)",
        request=ReasonSerializer,
        responses={200: ResultSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        result = self.get_result(pk)
        data = self.input(ReasonSerializer, request)
        result = result_services.result_dispute(
            result=result, by=request.user, reason=data["reason"]
        )
        return self.answer(result)


class ResultResolveView(ResultView):
    @extend_schema(
        summary="Resolve a disputed or pending result: accept or reject (organizers)",
        request=ResolveSerializer,
        responses={200: ResultSerializer, **WRITE_ERRORS},
    )
    def post(self, request, pk: int):
        result = self.get_result(pk)
        data = self.input(ResolveSerializer, request)
        result = result_services.result_resolve(
            result=result, by=request.user, accept=data["accept"], note=data.get("note", "")
        )
        return self.answer(result)
