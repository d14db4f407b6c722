"""The move analysis of a game's log: ``GET /api/v1/fixtures/<id>/analysis/``, and
``POST …/analysis/retry/`` (organizers: run a failed one again)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from core.throttles import SubmissionThrottle
from games.analysis import analysis_for_log
from tournaments.api.base import READ_ERRORS, SUBMIT_ERRORS
from tournaments.api.fixtures import FixtureView
from tournaments.models import Fixture, Result
from tournaments.permissions import is_organizer
from tournaments.services.analyses import analysis_retry


class AnalysisSerializer(serializers.Serializer):
    fixture = serializers.IntegerField()
    log_sha256 = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"],
        help_text="none: the game has no log, or its log was not analysed yet",
    )
    format = serializers.CharField(allow_null=True)
    rollouts = serializers.IntegerField(
        allow_null=True, help_text="0 since maedn-analysis/4 (the analysis has no rollouts)"
    )
    seed = serializers.IntegerField(allow_null=True, help_text="0 since maedn-analysis/4")
    seats = serializers.DictField(
        child=serializers.CharField(), help_text="board seat (0-based) → the log's player there"
    )
    error = serializers.CharField(
        allow_blank=True,
        help_text="why a failed analysis failed: for the league's organizers and staff only "
        "(empty for everyone else)",
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    analysis = serializers.JSONField(
        allow_null=True, help_text="the maedn-analysis/5 object (docs/analysis.md), when done"
    )


class FixtureAnalysisView(FixtureView):
    @extend_schema(
        summary="The move analysis of the game's log",
        description="The analysis of the counted result's log (else the log awaiting "
        "confirmation): its status and, once done, the `maedn-analysis/5` object — every "
        "decision with its options' chances to win and losses in milli-wins, the win "
        "probability after every event, and a summary per log player with the error rate "
        "and the luck split (docs/analysis.md).",
        responses={200: AnalysisSerializer, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        return Response(analysis_body(self.get_fixture(pk), request.user))


def analysis_body(fixture: Fixture, user) -> dict:
    """The answer of ``GET …/analysis/``: the counted result's log (else the one awaiting
    confirmation) and the analysis a page shows of it."""
    log = _analysed_log(fixture)
    row = analysis_for_log(log.pk if log else None)
    body = {
        "fixture": fixture.pk,
        "log_sha256": log.sha256 if log else None,
        **_analysis_fields(row, fixture, user),
    }
    return AnalysisSerializer(body).data


def _analysed_log(fixture: Fixture):
    """The log of the counted result, else of the earliest one awaiting confirmation."""
    results = sorted(
        (r for r in fixture.results.all() if r.game_log_id),
        key=lambda r: (r.state != Result.State.CONFIRMED, r.created_at),
    )
    return results[0].game_log if results else None


def _analysis_fields(row, fixture: Fixture, user) -> dict:
    """The analysis's state and, once done, its object. Why it failed (the worker's
    exception message) only the league's organizers and staff see, as on the game page."""
    if row is None:  # no log, or one never sent to the analysis
        return {
            "status": "none",
            "format": None,
            "rollouts": None,
            "seed": None,
            "seats": {},
            "error": "",
            "finished_at": None,
            "analysis": None,
        }
    return {
        "status": row.status,
        "format": row.format,
        "rollouts": row.rollouts,
        "seed": row.seed,
        "seats": row.seats,
        "error": row.error if row.error and is_organizer(user, fixture.league) else "",
        "finished_at": row.finished_at,
        "analysis": row.data if row.status == "done" else None,
    }


class FixtureAnalysisRetryView(FixtureView):
    throttle_classes = [SubmissionThrottle]

    @extend_schema(
        summary="Run the game's failed move analysis again (organizers)",
        description="The analysis of the counted result's log under the site's current "
        "format goes back to `queued` and is sent to the analysis workers "
        "(`analysis_retry`); the answer is the analysis as `GET …/analysis/` gives it. "
        "400: analyses are off on this site, the game has no counted log, or its analysis "
        "is not failed (the message says whether it is queued, running or done).",
        request=None,
        responses={200: AnalysisSerializer, **SUBMIT_ERRORS},
    )
    def post(self, request, pk: int):
        fixture = self.get_fixture(pk)
        analysis_retry(fixture=fixture, by=request.user)
        return Response(analysis_body(fixture, request.user))
