"""Asking for the move analysis of every counted game (and of finished online rooms).

``analysis_for_counted`` is called where a result starts (or stops) counting
(``results._counts_changed``): the fixture's counted log gets a queued ``GameAnalysis`` row
in the same transaction and, on commit, the task ``games.analyse`` is sent by name to its own
queue (``ANALYSIS_QUEUE``). A replaced (corrected) log is a new log with a new content hash,
so it gets its own analysis; the old one stays with the old log.

When analyses are not sent at once:

* ``ANALYSIS_ENABLED`` off (the test-suite default): nothing is asked for.
* Celery in-process (eager, the embedded ``make run`` default): the row is queued but no task
  runs inside the request (an analysis takes up to a minute); ``manage.py analyse_games``
  computes the queued ones.
* A recent broker outage (``services/broker.py``): not sent, so a confirmation never waits
  for one more broker timeout; ``analyses_catch_up`` (beat) sends it later.

A failed analysis stays failed (the worker never retries it by itself): an organizer of
the league runs it again with ``analysis_retry`` (the game page, the results desk, the
API), ``manage.py analyse_games --retry-failed`` does so for every failed one.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.analysis import ANALYSE_TASK, analysis_key, analysis_request
from games.models import GameAnalysis, GameLog
from tournaments.models import Fixture, Result
from tournaments.permissions import analysis_retry_refusal
from tournaments.selectors.analyses import counted_log_analysis
from tournaments.services.broker import task_send
from tournaments.services.errors import ServiceError
from tournaments.services.guards import require_no_refusal

logger = logging.getLogger(__name__)

#: a retry that found the row failed again by the time it looked (the pages translate it)
CHANGED_MEANWHILE = gettext_noop("the analysis of this game changed meanwhile; try again")
#: a queued row this old whose task may have been lost is sent again by the catch-up
RESEND_AFTER = timedelta(minutes=10)


def analyses_enabled() -> bool:
    return bool(getattr(settings, "ANALYSIS_ENABLED", False))


def analysis_send(analysis_id: int) -> bool:
    """Send ``games.analyse`` for one row unless Celery runs in-process or the broker was
    down a moment ago. Never raises; returns whether it was sent."""
    return task_send(ANALYSE_TASK, (analysis_id,), optional=True)


def analysis_for_log(log: GameLog) -> GameAnalysis | None:
    """Queue the analysis of ``log`` (sent on commit) unless analyses are off or it exists."""
    if not analyses_enabled():
        return None
    row, _ = analysis_request(log)
    if row.status == GameAnalysis.Status.QUEUED:
        analysis_id = row.pk
        transaction.on_commit(lambda: analysis_send(analysis_id))
    return row


def analysis_for_counted(fixture: Fixture) -> GameAnalysis | None:
    """The fixture's counted result changed: analyse its log (if it has one)."""
    if not analyses_enabled():
        return None
    log = (
        GameLog.objects.filter(results__fixture=fixture, results__state=Result.State.CONFIRMED)
        .defer("content")
        .first()
    )
    return analysis_for_log(log) if log is not None else None


def analysis_retry(*, fixture: Fixture, by) -> GameAnalysis:
    """Run the failed move analysis of the fixture's counted log (under the current key)
    again: the row goes back to queued — error and claim cleared, ``created_at`` set to
    now, so the page shows it as the newest and the catch-up does not presume its message
    lost at once — and ``games.analyse`` is sent on commit (``analysis_send``). The worker
    claims it as any queued row (``analysis_run`` needs no ``retry_failed``).

    Only a failed row changes (a conditional UPDATE): of two retries at once one re-queues
    and sends, the other is told the analysis is queued already. Refused (``NotAllowed``
    for anyone but the league's organizers and staff, else ``ServiceError``) when analyses
    are off, the game has no counted log or its analysis is not failed."""
    log, row = counted_log_analysis(fixture)
    require_no_refusal(analysis_retry_refusal(by, fixture, row, counted_log=log is not None))
    with transaction.atomic():
        requeued = GameAnalysis.objects.filter(pk=row.pk, status=GameAnalysis.Status.FAILED).update(
            status=GameAnalysis.Status.QUEUED,
            error="",
            claim="",
            started_at=None,
            finished_at=None,
            created_at=timezone.now(),
        )
        if not requeued:  # run again (or claimed) since it was read: say what it is now
            now = GameAnalysis.objects.filter(pk=row.pk).first()
            require_no_refusal(analysis_retry_refusal(by, fixture, now, counted_log=True))
            raise ServiceError(CHANGED_MEANWHILE)
        analysis_id = row.pk
        transaction.on_commit(lambda: analysis_send(analysis_id))
    row.refresh_from_db()
    logger.info("analysis %s of fixture %s queued again by %s", row.pk, fixture.pk, by)
    return row


def counted_logs_without_analysis(limit: int | None = None):
    """The logs of counted results that have no analysis row under the current settings."""
    key = analysis_key()
    have = GameAnalysis.objects.filter(**key).values("sha256")
    logs = (
        GameLog.objects.filter(results__state=Result.State.CONFIRMED)
        .exclude(sha256__in=have)
        .defer("content")
        .distinct()
        .order_by("pk")
    )
    return logs[:limit] if limit else logs


def analyses_catch_up(limit: int = 500) -> dict:
    """Periodic safety net: a queued row for every counted log that lacks one, and the task
    sent for rows queued long ago (a lost message, a broker outage)."""
    if not analyses_enabled():
        return {"created": 0, "sent": 0}
    new = []
    for log in counted_logs_without_analysis(limit):
        row, made = analysis_request(log)
        if made:
            new.append(row.pk)
    lost = GameAnalysis.objects.filter(
        status=GameAnalysis.Status.QUEUED,
        created_at__lt=timezone.now() - RESEND_AFTER,
        **analysis_key(),
    ).values_list("pk", flat=True)[:limit]
    sent = sum(analysis_send(pk) for pk in dict.fromkeys([*new, *lost]))
    return {"created": len(new), "sent": sent}


def analyse_now(
    *,
    limit: int | None = None,
    league_slug: str | None = None,
    retry_failed: bool = False,
    progress=None,
) -> list[dict]:
    """Compute, in this process, the analyses of counted logs that have none under the
    current key, plus queued ones: what
    ``manage.py analyse_games`` and the demo do where no worker runs. Ignores
    ``ANALYSIS_ENABLED`` (asked for explicitly). Returns one outcome per analysis."""
    from games.analysis import analysis_run

    key = analysis_key()
    logs = GameLog.objects.filter(results__state=Result.State.CONFIRMED)
    if league_slug:
        logs = logs.filter(results__fixture__league__slug=league_slug)
    done = GameAnalysis.objects.filter(**key).exclude(status=GameAnalysis.Status.QUEUED)
    if not retry_failed:
        logs = logs.exclude(sha256__in=done.values("sha256"))
    else:
        logs = logs.exclude(sha256__in=done.exclude(status="failed").values("sha256"))
    logs = logs.defer("content").distinct().order_by("pk")
    outcomes = []
    for log in logs[:limit] if limit else logs:
        row, _ = analysis_request(log)
        outcome = analysis_run(row.pk, retry_failed=retry_failed)
        if progress is not None:
            progress(log, outcome)
        outcomes.append(outcome)
    return outcomes
