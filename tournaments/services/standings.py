"""Invalidating and recomputing a league's standings snapshot from its counted results.

``standings_invalidate`` is the one way a service says "a counting result changed": it bumps
the league's revision and, on commit, queues the Celery task
``tournaments.recompute_standings``, which calls ``standings_recompute``. The pure ranking is
``tournaments.algorithms.standings.compute_standings``; this module loads the inputs in a
fixed number of queries, and replaces the snapshot in one transaction while holding the
league's row lock, so two runs for one league never interleave and a run killed midway
leaves the previous snapshot intact (the next run fixes it).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils import timezone

from core.retry import OUTAGE_ERRORS
from tournaments.algorithms.standings import compute_standings, rank_standings
from tournaments.models import (
    Entry,
    Fixture,
    League,
    StandingsFailure,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.selectors.standings_inputs import (
    NOT_PLAIN,
    STALE,
    SUMMED,
    entry_sums,
    league_metrics,
    outcomes_among,
    outcomes_for,
    roll_offs_for,
    summable,
    tallied_sums,
)
from tournaments.services.broker import task_send
from tournaments.services.notify import STANDINGS_FAILED, notify_enqueue
from tournaments.services.standings_sums import standings_sums_rebuild

logger = logging.getLogger(__name__)

#: the Celery task that recomputes one league (``tournaments/tasks.py``), named rather than
#: imported: tasks call services, never the other way round
RECOMPUTE_TASK = "tournaments.recompute_standings"

STAGE = "league"


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # WonLost and friends
        return {"text": f"{value[0]}–{value[1]}", **value._asdict()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


#: a claim that lasts at least this much longer is a running holder's (``_claim``: 60 s);
#: measured from the bump's own statement (``statement_timestamp()``, not ``now()``, the
#: transaction's start: a long transaction would otherwise trust a lapsing claim)
HELD_SECONDS = 5

_BUMP_SQL = f"""UPDATE "tournaments_league" SET "results_revision" = "results_revision" + 1
WHERE "id" = %s
RETURNING "standings_claimed_until" > statement_timestamp() + interval '{HELD_SECONDS} s'"""


def standings_invalidate(league: League) -> None:
    """A counting result (or the schedule) of ``league`` changed: bump its revision now and,
    once the transaction has committed, ask a worker to recompute the standings — unless
    a worker holds the league's recompute (its claim seen by the bump, in the same
    statement): the holder brings the table to this revision (issue 31, h-upload5).

    Why the holder must: the bump holds the league's row until this transaction commits,
    and the holder lets go of its claim with an UPDATE of that row, so it lets go after
    this commit and then checks the revision once more (``standings_recompute``), seeing
    this one. A holder killed without letting go leaves a claim that lapses; the catch-up
    task recomputes then, as for every result whose task found the league claimed."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_BUMP_SQL, [league.pk])
            row = cursor.fetchone()
        if row is not None and row[0]:  # a running holder takes this revision
            return
    else:  # (SQLite: the task is always sent)
        League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    league_id = league.pk
    transaction.on_commit(lambda: standings_enqueue(league_id))


def standings_enqueue(league_id: int) -> None:
    """Send the recompute task. A broker outage must not fail a submission: the periodic
    catch-up task finds leagues whose snapshot is behind and recomputes them."""
    task_send(RECOMPUTE_TASK, (league_id,))


#: how long a claim on a league's recompute lasts: a worker killed mid-run holds it no
#: longer than this, after which the catch-up's task claims it again
CLAIM_SECONDS = 60


def standings_recompute(league_id: int) -> dict:
    """Bring the league's snapshot up to its results revision, one worker at a time.

    Coalescing (docs/results.md, "A burst of results"): a worker **claims** the league with
    a conditional UPDATE (``standings_claimed_until`` empty or past); a task that finds it
    claimed does nothing, since the holder recomputes again before it lets go whenever the
    revision moved during its run, and checks once more after letting go (a task that gave
    up in between is covered). So a burst of N results costs one or two recomputes, and the
    last one is at the league's final revision. A snapshot already at the revision is left
    alone (idempotent).

    A recompute that fails on the league's data (a bad row) keeps the previous snapshot,
    records why (``StandingsFailure``: the page says the table is stale and why) and is not
    retried until the results change again; other leagues are unaffected. A database
    outage is raised, for the task to retry.
    """
    outcome: dict = {"league": league_id, "status": "up to date"}
    while True:
        target, claimed_until = _state(league_id)
        if target is GONE:
            return {"league": league_id, "status": "gone"}
        if target is CURRENT:
            return outcome
        # a claim seen running is left to its holder without trying to take it: during a
        # burst every result's task came here, and each conditional UPDATE of the league's
        # row waited for the uploads holding it (their revision bumps) only to find it
        # claimed; the holder's checks cover this task exactly as a refused UPDATE would
        if claimed_until is not None and claimed_until > timezone.now():
            return {"league": league_id, "status": "claimed by another worker"}
        claim = _claim(league_id)
        if claim is None:
            return {"league": league_id, "status": "claimed by another worker"}
        try:
            outcome = _recompute_while_behind(league_id, outcome)
        finally:
            League.objects.filter(pk=league_id, standings_claimed_until=claim).update(
                standings_claimed_until=None
            )


def _recompute_while_behind(league_id: int, outcome: dict) -> dict:
    """Under the claim: recompute until the snapshot is at the league's revision (or a
    failure is recorded at it); the outcome to report. A run starts no sooner than
    ``STANDINGS_RECOMPUTE_SPACING`` seconds after the previous run of this claim started:
    under a burst the holder pauses, and the results that land meanwhile are taken by one
    run (issue 31, h-upload5: one recompute per result took a core at 20 uploads/s)."""
    started = None
    while isinstance(revision := _behind(league_id), int):
        if started is not None and (pause := _pause_after(started)) > 0:
            time.sleep(pause)
            revision = _behind(league_id)  # the results of the pause are taken too
            if not isinstance(revision, int):
                break
        started = time.monotonic()
        try:
            step = _recompute(league_id)
        except OUTAGE_ERRORS:  # an outage, not the data: the task retries
            raise
        except Exception as exc:
            outcome = _record_failure(league_id, revision, exc)
            continue  # recorded at this revision: done unless it moved meanwhile
        StandingsFailure.objects.filter(league_id=league_id).delete()
        if step["status"] == "recomputed" or outcome["status"] == "up to date":
            outcome = step
    return outcome


def _pause_after(started: float) -> float:
    """How long the holder waits before its next run (``STANDINGS_RECOMPUTE_SPACING``)."""
    spacing = float(getattr(settings, "STANDINGS_RECOMPUTE_SPACING", 0.0))
    return started + spacing - time.monotonic()


GONE, CURRENT = "gone", "current"


def _behind(league_id: int) -> int | str:
    """The league's results revision if its snapshot is missing or behind it (and no
    recompute failed at it), ``CURRENT`` if it is current, ``GONE`` if the league is."""
    return _state(league_id)[0]


def _state(league_id: int) -> tuple[int | str, dt.datetime | None]:
    """``_behind`` and, in the same query, until when the league's recompute is claimed."""
    row = (
        League.objects.filter(pk=league_id)
        .annotate(
            snap=Subquery(
                StandingsSnapshot.objects.filter(league=OuterRef("pk"), stage=STAGE).values(
                    "results_revision"
                )[:1]
            ),
            failed=Subquery(
                StandingsFailure.objects.filter(league=OuterRef("pk")).values("revision")[:1]
            ),
        )
        .values_list("results_revision", "snap", "failed", "standings_claimed_until")
        .first()
    )
    if row is None:
        return GONE, None
    revision, snap, failed, claimed_until = row
    if (snap is not None and snap >= revision) or (failed is not None and failed >= revision):
        return CURRENT, claimed_until
    return revision, claimed_until


def _claim(league_id: int):
    """Claim the league's recompute (a conditional UPDATE, race-safe); the claim's value,
    or ``None`` if another worker holds an unexpired claim."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=CLAIM_SECONDS)
    claimed = (
        League.objects.filter(pk=league_id)
        .filter(Q(standings_claimed_until__isnull=True) | Q(standings_claimed_until__lt=now))
        .update(standings_claimed_until=until)
    )
    return until if claimed else None


def _record_failure(league_id: int, revision: int, exc: Exception) -> dict:
    reason = f"{type(exc).__name__}: {exc}"[:2000]
    logger.exception("standings of league %s failed at revision %s", league_id, revision)
    StandingsFailure.objects.update_or_create(
        league_id=league_id, defaults={"revision": revision, "error": reason}
    )
    notify_enqueue(STANDINGS_FAILED, league_id, f"revision-{revision}")  # the organizers
    return {"league": league_id, "status": "failed", "revision": revision, "error": reason}


def _recompute(league_id: int) -> dict:
    """One recompute to the revision read first (the inputs read after it are at least as
    new), computed without any lock; then the snapshot replaced in one short transaction
    holding only the snapshot's row, and only if it is still behind. The league's row is
    never locked here: organizers' result writes (which raise its revision) never wait for
    a recompute."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        return {"league": league_id, "status": "gone"}
    revision = league.results_revision
    current = StandingsSnapshot.objects.filter(league=league, stage=STAGE)
    if current.filter(results_revision__gte=revision).exists():
        return {"league": league_id, "status": "up to date", "revision": revision}
    games, table = _computed_table(league)
    counts = Fixture.objects.filter(
        league=league, series__isnull=True, stage=Fixture.Stage.REGULAR
    ).aggregate(total=_count(), decided=_count(Q(status__in=Fixture.CLOSED_STATUSES)))
    fields = dict(
        results_revision=revision,
        provisional=_provisional(league, counts),
        games_played=games,
        games_total=counts["total"],
        precedence=list(league.precedence),
    )
    rows = [_standings_row(n, row, league.precedence) for n, row in enumerate(table, start=1)]
    with transaction.atomic():
        snapshot = current.select_for_update().first()
        if snapshot is not None and snapshot.results_revision >= revision:
            return {"league": league_id, "status": "up to date", "revision": revision}
        snapshot = _snapshot_replaced(league, snapshot, fields)
        if snapshot is None:  # written at the same moment by a worker with a stale claim
            return {"league": league_id, "status": "up to date", "revision": revision}
        for row in rows:
            row.snapshot = snapshot
        StandingsRow.objects.bulk_create(rows)
    return {
        "league": league_id,
        "status": "recomputed",
        "revision": revision,
        "games": games,
    }


def _computed_table(league: League) -> tuple[int, list]:
    """The number of counted games, and the league-stage table of the accepted entries
    computed from them (ranked by the league's metrics and roll-offs).

    Where the database can (docs/results.md, "How a recompute reads a league"), each
    entry's sums over its games are read from the sums the counting transaction keeps —
    a row per entry, checked against the league's counted results — and only a tied
    group's head-to-head reads games: a 12,000-game league costs milliseconds, not a
    statement over every seat. Otherwise (a precedence with points, a result only the
    games' checks read right, SQLite) from every game."""
    entries = list(
        league.entries.filter(state=Entry.State.ACCEPTED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    metrics = league_metrics(league)
    summed = summable(metrics) and _sums(league, entries)
    if summed:
        games, values, pairs = summed
        table = rank_standings(
            entries,
            values,
            metrics,
            games_among=lambda classes: outcomes_among(league, classes),
            pair_scores=pairs,
            roll_offs=roll_offs_for(league),
        )
        return games, table
    outcomes = outcomes_for(league)
    table = compute_standings(entries, outcomes, metrics, roll_offs=roll_offs_for(league))
    return len(outcomes), table


def _sums(league: League, entries: list[int]) -> tuple[int, dict, dict | None] | None:
    """The number of counted games, the entries' sums and head-to-head per pair
    (docs/results.md, "Sums kept by the counting transaction"): the kept ones when they
    hold exactly the league's counted results, else rebuilt from scratch first; the
    summing statement over every seat when even the rebuilt ones do not (a result counted
    while they were rebuilt: the next recompute rebuilds again), head-to-head then from
    the tied groups' games. ``None`` when a counted result is not plain (or a seat no
    accepted entry), or the database is not PostgreSQL: the table is then computed from
    every game."""
    if connection.vendor != "postgresql":
        return None
    kept = tallied_sums(league, entries)
    if kept.state == STALE:
        standings_sums_rebuild(league)
        kept = tallied_sums(league, entries)
    if kept.state == SUMMED:
        return kept.games, kept.values, kept.pairs
    if kept.state == NOT_PLAIN:
        return None
    summed = entry_sums(league, entries)
    return summed and (*summed, None)


def _standings_row(position: int, row, precedence: list[str]) -> StandingsRow:
    """One row of the computed table as stored (its snapshot set when it is written)."""
    return StandingsRow(
        entry_id=row.entry,
        rank=row.rank,
        position=position,
        played=row.values.get("games_played", 0),
        wins=row.values.get("wins", 0),
        losses=row.values.get("losses", 0),
        points=_points(row.values, precedence),
        metrics={k: _jsonable(v) for k, v in row.values.items()},
        separated_by=row.separated_by or "",
    )


def _snapshot_replaced(league: League, snapshot, fields: dict):
    """The league's snapshot with ``fields``, its rows gone (in the caller's transaction,
    the snapshot's row locked): updated, or created where there is none; None when
    another worker created it at the same moment."""
    if snapshot is not None:
        StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
            computed_at=timezone.now(), **fields
        )
        snapshot.rows.all().delete()
        return snapshot
    try:
        with transaction.atomic():
            return StandingsSnapshot.objects.create(league=league, stage=STAGE, **fields)
    except IntegrityError:
        return None


def _provisional(league: League, counts: dict) -> bool:
    """Provisional while games or DRRs remain; settled when the stage is over."""
    if league.event_kind == League.EventKind.LEAGUE:
        missing = league.cycles.count() < league.drr_count  # always one query
    elif league.event_kind == League.EventKind.OPEN:
        missing = league.open_rounds.filter(is_final=False).count() < league.games_planned
    else:
        missing = False
    return missing or counts["total"] == 0 or counts["decided"] < counts["total"]


def _points(values: dict, precedence: list[str]) -> float:
    for key in ("gp_points", "gp_plus_points", "placement_points"):
        if key in precedence:
            return float(values.get(key) or 0)
    return float(values.get("wins", 0))


def _count(condition: Q | None = None) -> Count:
    return Count("pk", filter=condition)


def leagues_with_stale_standings() -> list[int]:
    """Leagues whose snapshot is missing or behind their results revision, less those whose
    recompute already failed at that revision (retrying the same data fails the same way;
    the next result change is tried again)."""
    current = StandingsSnapshot.objects.filter(league=OuterRef("pk"), stage=STAGE)
    return list(
        League.objects.annotate(snap=Subquery(current.values("results_revision")[:1]))
        .filter(Q(snap__isnull=True, fixtures__isnull=False) | Q(snap__lt=F("results_revision")))
        .exclude(standings_failure__revision=F("results_revision"))
        .distinct()
        .values_list("pk", flat=True)
    )
