"""Asking for the move analysis of every counted game (and of finished online rooms).

``analysis_for_counted`` is called where a result starts (or stops) counting
(``results._counts_changed``): the fixture's counted log gets a queued ``GameAnalysis`` row
in the same transaction and, on commit, the task ``games.analyse`` is sent by name to its own
queue (``ANALYSIS_QUEUE``). A replaced (corrected) log is a new log with a new content hash,
so it gets its own analysis; the old log's analysis, if still queued, is skipped (only the
log that counts is analysed; a done one stays with the old log). Each row has one message
in the queue at a time (``queued_at``, claimed by a conditional UPDATE), and at most
``ANALYSIS_QUEUED_PER_ORGANIZER`` analyses of one league owner's games are in the queue.

When analyses are not sent at once:

* ``ANALYSIS_ENABLED`` off (the test-suite default): nothing is asked for.
* Celery in-process (eager, the embedded ``make run`` default): the row is queued but no task
  runs inside the request (an analysis takes up to a minute); with the embedded beat
  (``EMBEDDED_BEAT``, ``make run``) the catch-up computes ``EMBEDDED_ANALYSES_PER_RUN`` of
  them per run in its background thread (``make run``: every 60 s), else
  ``manage.py analyse_games`` computes the queued ones.
* A recent broker outage (``services/broker.py``): not sent, so a confirmation never waits
  for one more broker timeout; ``analyses_catch_up`` (beat) sends it later.

A failed analysis stays failed (the worker never retries it by itself): an organizer of
the league runs it again with ``analysis_retry`` (the game page, the results desk, the
API), ``manage.py analyse_games --retry-failed`` does so for every failed one.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.analysis import ANALYSE_TASK, analysis_key, analysis_request, analysis_run
from games.models import GameAnalysis, GameLog
from tournaments.models import Fixture, Result
from tournaments.permissions import analysis_retry_refusal
from tournaments.selectors.analyses import counted_log_analysis
from tournaments.services import counting
from tournaments.services.broker import broker_recently_down, task_send
from tournaments.services.errors import ServiceError
from tournaments.services.guards import require_no_refusal

logger = logging.getLogger(__name__)

#: a retry that found the row failed again by the time it looked (the pages translate it)
CHANGED_MEANWHILE = gettext_noop("the analysis of this game changed meanwhile; try again")
#: a queued row whose message went out this long ago may be sent again by the catch-up,
#: if its message looks lost (``_lost``)
RESEND_AFTER = timedelta(minutes=10)
#: analyses the embedded beat computes per catch-up run where no worker runs (make run)
EMBEDDED_ANALYSES_PER_RUN = 3
#: the ``error`` of a skipped analysis (the pages translate it)
SUPERSEDED = gettext_noop(
    "not analysed: this log stopped counting (a correction replaced it) before its turn came"
)


def analyses_enabled() -> bool:
    return bool(getattr(settings, "ANALYSIS_ENABLED", False))


def queued_per_organizer() -> int:
    """``ANALYSIS_QUEUED_PER_ORGANIZER``: how many analyses of one league owner's games may
    be in the queue (sent, not finished) at once; more wait, unsent, for the catch-up."""
    return max(1, int(getattr(settings, "ANALYSIS_QUEUED_PER_ORGANIZER", 10)))


def _claim_message(analysis_id: int, resend_before=None):
    """Claim the right to send the row's message: a conditional UPDATE of ``queued_at``
    that only one sender wins — a queued row never sent, or (``resend_before``) last sent
    before then. Returns the claim's time, or ``None``."""
    now = timezone.now()
    unsent = Q(queued_at__isnull=True)
    if resend_before is not None:
        unsent |= Q(queued_at__lt=resend_before)
    won = GameAnalysis.objects.filter(
        unsent, pk=analysis_id, status=GameAnalysis.Status.QUEUED
    ).update(queued_at=now)
    return now if won else None


def analysis_send(analysis_id: int, *, resend_before=None, owner_id: int | None = None) -> bool:
    """Send ``games.analyse`` for one queued row, once: unless Celery runs in-process or
    the broker was down a moment ago, or (``owner_id``) that league owner's analyses fill
    their room in the queue, and only if this call claims the row's message
    (``_claim_message``; a failed send gives the claim back). Never raises; returns
    whether it was sent (a row not sent waits for the catch-up)."""
    if current_app.conf.task_always_eager or broker_recently_down():
        return False
    if not _organizer_has_room(owner_id):
        logger.info("analysis %s waits: organizer %s has a full queue", analysis_id, owner_id)
        return False
    claimed = _claim_message(analysis_id, resend_before)
    if claimed is None:
        return False
    if task_send(ANALYSE_TASK, (analysis_id,), optional=True):
        return True
    GameAnalysis.objects.filter(pk=analysis_id, queued_at=claimed).update(queued_at=None)
    return False


def _in_queue() -> Q:
    """Rows whose message is out and whose analysis has not finished."""
    return Q(status=GameAnalysis.Status.RUNNING) | Q(
        status=GameAnalysis.Status.QUEUED, queued_at__isnull=False
    )


def _organizer_has_room(owner_id: int | None) -> bool:
    if owner_id is None:
        return True
    busy = (
        GameAnalysis.objects.filter(_in_queue(), log__results__fixture__league__owner_id=owner_id)
        .values("pk")
        .distinct()
        .count()
    )
    return busy < queued_per_organizer()


def analysis_for_log(log: GameLog, *, owner_id: int | None = None) -> GameAnalysis | None:
    """Queue the analysis of ``log`` (sent on commit) unless analyses are off or it exists.
    ``owner_id``: the owner of the league whose game it is; while that organizer has
    ``ANALYSIS_QUEUED_PER_ORGANIZER`` analyses in the queue, the row waits unsent and the
    catch-up sends it when there is room. A row skipped because its log had stopped
    counting is queued again (its log counts once more)."""
    if not analyses_enabled():
        return None
    row, _ = analysis_request(log)
    if row.status == GameAnalysis.Status.SKIPPED:
        GameAnalysis.objects.filter(pk=row.pk, status=GameAnalysis.Status.SKIPPED).update(
            status=GameAnalysis.Status.QUEUED, error="", queued_at=None, created_at=timezone.now()
        )
        row.refresh_from_db()
    if row.status == GameAnalysis.Status.QUEUED and row.queued_at is None:
        analysis_id = row.pk
        transaction.on_commit(lambda: analysis_send(analysis_id, owner_id=owner_id))
    return row


def analyses_skip_superseded(logs=None) -> int:
    """Mark ``skipped`` the queued analyses of logs that no longer count: logs of results
    (of ``logs``, or all) none of which is confirmed any more — a correction replaced them,
    or the game was voided. A worker never claims a skipped row, so only the log that
    counts is analysed. Returns how many rows were skipped."""
    rows = GameAnalysis.objects.filter(status=GameAnalysis.Status.QUEUED).filter(
        Exists(Result.objects.filter(game_log_id=OuterRef("log_id")))
    )
    if logs is not None:
        rows = rows.filter(log_id__in=logs)
    rows = rows.exclude(
        Exists(Result.objects.filter(game_log_id=OuterRef("log_id"), state=Result.State.CONFIRMED))
    )
    skipped = rows.update(status=GameAnalysis.Status.SKIPPED, error=SUPERSEDED)
    if skipped:
        logger.info("skipped %s queued analyses of logs that no longer count", skipped)
    return skipped


def analyses_unskip_counted() -> int:
    """Queue again (unsent) the skipped analyses of logs that count after all — a log that
    was skipped while a correction of it was being undone at the same moment. Returns how
    many."""
    rows = GameAnalysis.objects.filter(status=GameAnalysis.Status.SKIPPED).filter(
        Exists(Result.objects.filter(game_log_id=OuterRef("log_id"), state=Result.State.CONFIRMED))
    )
    return rows.update(status=GameAnalysis.Status.QUEUED, error="", queued_at=None)


def analysis_for_counted(fixture: Fixture) -> GameAnalysis | None:
    """The fixture's counted result changed: the queued analyses of its logs that no
    longer count are skipped, and its counted log (if it has one) is analysed."""
    if not analyses_enabled():
        return None
    versions = Result.objects.filter(fixture=fixture, game_log__isnull=False)
    # only a log with a version that no longer counts can have stopped counting: a new
    # game's first upload has none, and its UPDATE over the queued analyses is not run
    stopped = {
        log
        for log, state in versions.values_list("game_log_id", "state")
        if state != Result.State.CONFIRMED
    }
    if stopped:
        analyses_skip_superseded(sorted(stopped))
    log = (
        GameLog.objects.filter(results__fixture=fixture, results__state=Result.State.CONFIRMED)
        .defer("content")
        .first()
    )
    if log is None:
        return None
    return analysis_for_log(log, owner_id=fixture.league.owner_id)


def analysis_retry(*, fixture: Fixture, by) -> GameAnalysis:
    """Run the failed move analysis of the fixture's counted log (under the current key)
    again: the row goes back to queued — error, claim and ``queued_at`` cleared,
    ``created_at`` set to now, so the page shows it as the newest — and ``games.analyse``
    is sent on commit (``analysis_send``, which claims the row's message). The worker
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
            queued_at=None,
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


def _owners(analysis_ids: list[int]) -> dict[int, int | None]:
    """Each row's league owner (``None`` for a log of no league game: an online room's)."""
    owners: dict[int, int | None] = dict.fromkeys(analysis_ids)
    for pk, owner in GameAnalysis.objects.filter(
        pk__in=analysis_ids, log__results__fixture__league__isnull=False
    ).values_list("pk", "log__results__fixture__league__owner_id"):
        owners[pk] = owners[pk] or owner
    return owners


def _unsent_within_limits(limit: int) -> list[int]:
    """Queued rows never sent, oldest first, as many per league owner as the owner's room
    in the queue (``ANALYSIS_QUEUED_PER_ORGANIZER``) allows."""
    unsent = list(
        GameAnalysis.objects.filter(
            status=GameAnalysis.Status.QUEUED, queued_at__isnull=True, **analysis_key()
        )
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    owners = _owners(unsent)
    busy = {owner: _in_queue_of(owner) for owner in set(owners.values()) - {None}}
    room = queued_per_organizer()
    chosen = []
    for pk in unsent:
        owner = owners[pk]
        if owner is None:
            chosen.append(pk)
        elif busy[owner] < room:
            busy[owner] += 1
            chosen.append(pk)
    return chosen


def _in_queue_of(owner: int) -> int:
    """How many analyses of the owner's leagues are in the queue."""
    return (
        GameAnalysis.objects.filter(_in_queue(), log__results__fixture__league__owner_id=owner)
        .values("pk")
        .distinct()
        .count()
    )


def _lost(limit: int) -> list[int]:
    """Queued rows whose message is presumed lost: sent more than ``RESEND_AFTER`` ago,
    and the queue has moved past them (a row sent later has been started: the queue is
    first in, first out). A row merely waiting behind long analyses is not sent again.
    When the queue stands still (nothing sent, started or running for ``RESEND_AFTER``:
    the broker lost its messages, or no worker runs) only the oldest row is sent again, as
    a probe — one message per ``RESEND_AFTER`` — and once a worker starts it, every row
    sent before it counts as overtaken."""
    now = timezone.now()
    old = GameAnalysis.objects.filter(
        status=GameAnalysis.Status.QUEUED, queued_at__lt=now - RESEND_AFTER, **analysis_key()
    )
    recent = now - RESEND_AFTER
    idle = not GameAnalysis.objects.filter(
        Q(started_at__gte=recent) | Q(queued_at__gte=recent) | Q(status=GameAnalysis.Status.RUNNING)
    ).exists()
    if idle:
        return list(old.order_by("queued_at", "pk").values_list("pk", flat=True)[:1])
    overtaken = GameAnalysis.objects.filter(
        queued_at__gt=OuterRef("queued_at"), started_at__gte=F("queued_at")
    )
    old = old.filter(Exists(overtaken))
    return list(old.order_by("queued_at", "pk").values_list("pk", flat=True)[:limit])


def analyses_catch_up(limit: int = 500) -> dict:
    """Periodic safety net, one message per row at most: the queued analyses of logs that
    no longer count are skipped (and skipped ones of logs that count again queued); a
    queued row is made for every counted log that lacks one;
    rows never sent are sent within each organizer's room in the queue; and a row whose
    message is presumed lost (``_lost``) is sent again. Each send claims its row first
    (``analysis_send``), so two catch-ups at once send a row once."""
    if not analyses_enabled():
        return {"created": 0, "sent": 0}
    skipped = analyses_skip_superseded()
    analyses_unskip_counted()
    new = sum(analysis_request(log)[1] for log in counted_logs_without_analysis(limit))
    sent = sum(analysis_send(pk) for pk in _unsent_within_limits(limit))
    resend_before = timezone.now() - RESEND_AFTER
    sent += sum(analysis_send(pk, resend_before=resend_before) for pk in _lost(limit))
    outcome = {"created": new, "sent": sent}
    if current_app.conf.task_always_eager and getattr(settings, "EMBEDDED_BEAT", False):
        # make run: no worker takes the queue; the embedded beat's thread computes a few
        # per run (bounded: the serving process stays responsive), oldest first
        outcome["analysed"] = len(analyse_now(limit=EMBEDDED_ANALYSES_PER_RUN))
    if skipped:
        outcome["skipped"] = skipped
    return outcome


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


# --- a subscriber of counted results (tournaments/services/counting.py, docs/architecture.md)
#: the counted log's move analysis queued, sent on commit
counting.subscribe("analyses", order=200)(analysis_for_counted)
