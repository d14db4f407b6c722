"""The results desk of a league, as reads: games awaiting confirmation, disputes, overdue
games, rejected uploads and failed move analyses, each list in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Min, Prefetch, Q
from django.utils import timezone

from tournaments.models import Fixture, League, RejectedSubmission, Result
from tournaments.selectors.analyses import failed_analyses
from tournaments.selectors.prefetch import seats_prefetch

#: a game with no result yet and its time passed
WAITING_FOR_A_RESULT = (Fixture.Status.SCHEDULED,)


@dataclass(frozen=True)
class Desk:
    awaiting: list[Result]
    disputed: list[Result]
    overdue: list[Fixture]
    rejections: list[RejectedSubmission]
    #: counted results whose move analysis failed (``analysis_error`` says why)
    failed_analyses: list[Result]

    @property
    def empty(self) -> bool:
        return not (
            self.awaiting
            or self.disputed
            or self.overdue
            or self.rejections
            or self.failed_analyses
        )


def _open_results(league: League, state: str) -> list[Result]:
    return list(
        Result.objects.filter(fixture__league=league, state=state)
        .select_related("fixture", "submitted_by", "submitted_via__entry__player", "winner__player")
        .prefetch_related(Prefetch("fixture__seats", seats_prefetch().queryset))
        .order_by("created_at", "pk")
    )


def overdue_fixtures(league: League | None = None, now: datetime | None = None):
    """Games past their result deadline without a result (all leagues when ``league`` is
    None); a game without a deadline once its scheduled time has passed (a game played
    today with its result due on Sunday is not overdue before Sunday)."""
    now = now or timezone.now()
    games = Fixture.objects.filter(
        Q(deadline__lt=now) | Q(deadline__isnull=True, scheduled_at__lt=now),
        status__in=WAITING_FOR_A_RESULT,
    )
    if league is not None:
        games = games.filter(league=league)
    return games.order_by("scheduled_at", "pk")


def next_overdue_at(league: League, now: datetime | None = None) -> datetime | None:
    """The next moment a game of the league waiting for its result becomes overdue (its
    deadline, or its time when it has none; one query): until then the desk's list of
    overdue games holds without a write."""
    now = now or timezone.now()
    waiting = Fixture.objects.filter(league=league, status__in=WAITING_FOR_A_RESULT)
    found = waiting.aggregate(
        next_deadline=Min("deadline", filter=Q(deadline__gte=now)),
        next_time=Min("scheduled_at", filter=Q(deadline__isnull=True, scheduled_at__gte=now)),
    )
    times = [t for t in found.values() if t is not None]
    return min(times) if times else None


def league_desk(league: League, *, rejections: int = 20) -> Desk:
    return Desk(
        awaiting=_open_results(league, Result.State.PENDING),
        disputed=_open_results(league, Result.State.DISPUTED),
        overdue=list(overdue_fixtures(league).prefetch_related(seats_prefetch())),
        rejections=list(
            RejectedSubmission.objects.filter(fixture__league=league)
            .select_related("fixture", "submitted_by")
            .order_by("-created_at")[:rejections]
        ),
        # listed while analyses are on: only then can an organizer have them run again
        failed_analyses=(
            failed_analyses(league) if getattr(settings, "ANALYSIS_ENABLED", False) else []
        ),
    )
