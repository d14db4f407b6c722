"""Stored move analyses of game logs: asking for one, computing it, reading it.

The analysis itself is the engine's (``games.engine.analysis.analyse``: every option's
equity from the learned evaluator with one ply of search, deterministic for a log and a
model). Here it is stored once per key — the log's SHA-256 and the analysis format (the
``rollouts`` and ``seed`` columns are 0 since ``maedn-analysis/2``, which uses no
rollouts) — in ``GameAnalysis``:

* :func:`analysis_request` finds or creates the queued row (a unique key: two requests at
  once find one row);
* :func:`analysis_run` claims the row with a conditional UPDATE (only a queued row, or one
  whose worker vanished long ago, can be claimed, and only by one worker), runs the engine
  outside any transaction, and stores the result only while still holding the claim, so two
  workers never store twice;
* :func:`analysis_for_log` reads the analysis a page shows.

Who asks for an analysis (every counted game, a finished online room) is the business of
the callers: ``tournaments/services/analyses.py``, ``live``.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.analysis_view import seat_players, viewer_data
from games.engine.analysis import ANALYSIS_FORMAT, MARK_CHECK_ROLLOUTS, AnalysisTooLong, analyse
from games.models import GameAnalysis, GameLog

logger = logging.getLogger(__name__)

#: the Celery task that runs one analysis (``games/tasks.py``), sent by name
ANALYSE_TASK = "games.analyse"
#: a row still "running" this long after its start lost its worker: it may be claimed again
STALE_AFTER = timedelta(minutes=30)
Status = GameAnalysis.Status
#: how the ``error`` of an analysis stopped by a bound begins (the pages look for it)
TOO_LONG = "too long to analyse: "


def too_long(row: GameAnalysis | None) -> bool:
    """Whether ``row`` failed because the game was too long to analyse (a bound)."""
    return bool(row and row.status == Status.FAILED and row.error.startswith(TOO_LONG))


def max_events() -> int:
    return int(getattr(settings, "ANALYSIS_MAX_EVENTS", 3000))


def _too_long_error(log: GameLog) -> str:
    return f"{TOO_LONG}the log has {log.events} events; the analysis takes at most {max_events()}"


def analysis_key() -> dict[str, Any]:
    """The key of an analysis under the current format (``maedn-analysis/2`` has no
    rollouts and no seed: both columns are 0)."""
    return {"format": ANALYSIS_FORMAT, "rollouts": 0, "seed": 0}


def analysis_request(log: GameLog) -> tuple[GameAnalysis, bool]:
    """The analysis row of ``log`` under the current key, created queued if there is none.
    Returns ``(analysis, created)``; safe to call concurrently (unique key)."""
    key = analysis_key()
    existing = GameAnalysis.objects.filter(sha256=log.sha256, **key).first()
    if existing is not None:
        return existing, False
    fields: dict[str, Any] = {}
    if log.events > max_events():  # never queued: the page says at once it is too long
        fields = {"status": Status.FAILED, "error": _too_long_error(log)}
        fields["finished_at"] = timezone.now()
    try:
        with transaction.atomic():
            return GameAnalysis.objects.create(log=log, sha256=log.sha256, **key, **fields), True
    except IntegrityError:  # asked for at the same moment elsewhere
        return GameAnalysis.objects.get(sha256=log.sha256, **key), False


def _claim(analysis_id: int, *, retry_failed: bool) -> str | None:
    token = uuid.uuid4().hex
    now = timezone.now()
    claimable = Q(status=Status.QUEUED) | Q(status=Status.RUNNING, started_at__lt=now - STALE_AFTER)
    if retry_failed:
        claimable |= Q(status=Status.FAILED)
    claimed = GameAnalysis.objects.filter(claimable, pk=analysis_id).update(
        status=Status.RUNNING, claim=token, started_at=now, error=""
    )
    return token if claimed else None


def _log_colours(text: str) -> list[str] | None:
    try:
        colours = json.loads(text).get("colours")
    except (ValueError, AttributeError):
        return None
    return colours if isinstance(colours, list) else None


def _failed(analysis_id: int, token: str, reason: str) -> dict:
    """Mark the claimed row failed with ``reason``; what :func:`analysis_run` returns then."""
    GameAnalysis.objects.filter(pk=analysis_id, claim=token).update(
        status=Status.FAILED, error=reason, finished_at=timezone.now(), claim=""
    )
    return {"analysis": analysis_id, "status": Status.FAILED, "error": reason, "stored": False}


def analysis_run(analysis_id: int, *, retry_failed: bool = False, progress=None) -> dict:
    """Compute and store one analysis, unless another worker has it or it is done.

    Idempotent: a done row is left as it is, a row another worker is running is left to
    it; only the claimant stores. A log the engine cannot analyse marks the row failed
    with the engine's message (``retry_failed`` tries such a row again). Returns what
    happened, for the task's result and the command's output.
    """
    token = _claim(analysis_id, retry_failed=retry_failed)
    if token is None:
        status = GameAnalysis.objects.filter(pk=analysis_id).values_list("status", flat=True)
        return {"analysis": analysis_id, "status": status.first() or "gone", "stored": False}
    row = GameAnalysis.objects.select_related("log").get(pk=analysis_id)
    started = time.monotonic()
    try:
        data = analyse(
            row.log.content,
            progress=progress,
            max_events=max_events(),
            max_cpu_seconds=float(getattr(settings, "ANALYSIS_MAX_CPU_SECONDS", 60)),
            mark_checks=MARK_CHECK_ROLLOUTS,  # the largest marks played out (checks.py)
        )
    except AnalysisTooLong as exc:
        reason = f"{TOO_LONG}{exc}"
        logger.warning("analysis %s of log %s: %s", analysis_id, row.sha256[:10], reason)
        return _failed(analysis_id, token, reason)
    except SoftTimeLimitExceeded:
        spent = time.monotonic() - started
        reason = f"{TOO_LONG}stopped at the task's time limit ({spent:.0f} s)"
        logger.warning("analysis %s of log %s: %s", analysis_id, row.sha256[:10], reason)
        return _failed(analysis_id, token, reason)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"[:2000]
        logger.exception("analysis %s of log %s failed", analysis_id, row.sha256[:10])
        return _failed(analysis_id, token, reason)
    seats = seat_players(data, _log_colours(row.log.content), row.log.board)
    seconds = data.get("seconds") if isinstance(data.get("seconds"), int | float) else None
    stored = GameAnalysis.objects.filter(pk=analysis_id, claim=token, status=Status.RUNNING).update(
        status=Status.DONE,
        data=data,
        seats={str(k): v for k, v in seats.items()},
        summary=data.get("summary") or {},
        seconds=seconds if seconds is not None else time.monotonic() - started,
        finished_at=timezone.now(),
        claim="",
    )
    return {"analysis": analysis_id, "status": Status.DONE, "stored": bool(stored)}


def analysis_for_log(log_id: int | None) -> GameAnalysis | None:
    """The analysis a page shows for a log: the done one of the current format (the newest),
    else the newest pending or failed one (the page says so), else None. Analyses of an
    older format are kept but not shown: the catch-up queues the current one."""
    if log_id is None:
        return None
    rows = GameAnalysis.objects.filter(log_id=log_id, format=ANALYSIS_FORMAT)
    done = rows.filter(status=Status.DONE).order_by("-finished_at").first()
    return done or rows.order_by("-created_at").first()


def log_viewer_data(log: GameLog | None, names: dict[str, str] | None = None) -> dict | None:
    """The replay viewer's analysis of a log (``games.analysis_view.viewer_data``), when a
    done analysis exists; ``names`` maps the log's player names to the names to show."""

    row = analysis_for_log(log.pk) if log is not None else None
    if row is None or row.status != Status.DONE or not row.data:
        return None
    return viewer_data(
        row.data,
        steps=log.events,
        board=log.board,
        seats=row.seats,
        names=names,
    )
