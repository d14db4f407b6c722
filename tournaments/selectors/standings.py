"""Standings as pages and the API read them: the snapshot stamp (one query, for caching
and conditional requests), the tables, and their metric columns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Count, Max, Prefetch

from tournaments.models import (
    League,
    StandingsFailure,
    StandingsRow,
    StandingsSnapshot,
)

STAGE_ORDER = {"league": 0}
#: metrics the table shows in fixed columns (played, won, lost)
FIXED_COLUMNS = {"games_played", "wins", "losses"}
POINTS_METRICS = ("gp_points", "gp_plus_points", "placement_points")


@dataclass(frozen=True)
class StandingsStamp:
    """What the standings of a league depend on, read in one query: enough to answer a
    conditional request (304) without loading the table."""

    league_id: int
    is_public: bool
    snapshots: int
    revision: int | None
    computed_at: datetime | None
    failed_revision: int | None = None
    """the results revision whose recompute failed (the table is stale), if any"""

    @property
    def etag(self) -> str:
        at = self.computed_at.timestamp() if self.computed_at else 0
        failed = f"-f{self.failed_revision}" if self.failed_revision is not None else ""
        return f"{self.league_id}-{self.snapshots}-{self.revision or 0}-{at:.6f}{failed}"


STAMP_SQL = """
SELECT l.id, l.is_public, COUNT(s.id), MAX(s.results_revision),
       EXTRACT(EPOCH FROM MAX(s.computed_at)), MAX(f.revision)
FROM tournaments_league l LEFT JOIN tournaments_standingssnapshot s ON s.league_id = l.id
     LEFT JOIN tournaments_standingsfailure f ON f.league_id = l.id
WHERE l.slug = %s GROUP BY l.id, l.is_public
"""


def standings_stamp(slug: str) -> StandingsStamp | None:
    """Asked on every standings visit and poll, so on PostgreSQL it is one prepared-looking
    SQL statement rather than an ORM query compiled each time (a third of a cached page's
    cost)."""
    if connection.vendor == "postgresql":
        return _stamp_by_sql(slug)
    row = (
        League.objects.filter(slug=slug)
        .annotate(
            n=Count("snapshots"),
            rev=Max("snapshots__results_revision"),
            at=Max("snapshots__computed_at"),
            failed=Max("standings_failure__revision"),
        )
        .values_list("pk", "is_public", "n", "rev", "at", "failed")
        .first()
    )
    return None if row is None else StandingsStamp(*row)


def _stamp_by_sql(slug: str) -> StandingsStamp | None:
    """The stamp read by :data:`STAMP_SQL` (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(STAMP_SQL, [slug])
        found = cursor.fetchone()
    if found is None:
        return None
    league_id, is_public, count, revision, epoch, failed = found
    at = datetime.fromtimestamp(float(epoch), tz=UTC) if epoch is not None else None
    return StandingsStamp(league_id, is_public, count, revision, at, failed)


def standings_tables(league: League) -> list[StandingsSnapshot]:
    """The league's newest snapshot per stage ("league" first), rows in table order."""
    snapshots = list(
        league.snapshots.prefetch_related(
            Prefetch(
                "rows",
                queryset=StandingsRow.objects.select_related("entry__player__rating").order_by(
                    "position"
                ),
            )
        )
    )
    snapshots.sort(key=lambda s: (STAGE_ORDER.get(s.stage, 1), s.stage))
    for snap in snapshots:
        snap.metric_keys = metric_columns(snap)
        snap.show_points = _shows_points(snap)
        snap.show_separated = any(row.separated_by for row in snap.rows.all())
    return snapshots


def _shows_points(snap: StandingsSnapshot) -> bool:
    """A points column of its own: the league scores points (a points metric ranks it)
    that no metric column shows. ``StandingsRow.points`` holds the wins otherwise."""
    scores = any(k in POINTS_METRICS for k in snap.precedence or [])
    return scores and not any(k in snap.metric_keys for k in POINTS_METRICS)


def metric_columns(snapshot: StandingsSnapshot) -> list[str]:
    """Metric keys to show as columns: the precedence order first, then the others."""
    shown = _metric_keys(snapshot)
    precedence = [k for k in (snapshot.precedence or []) if k in shown]
    return precedence + sorted(shown - set(precedence))


def _metric_keys(snapshot: StandingsSnapshot) -> set[str]:
    """The metrics the rows hold, but those shown in fixed columns."""
    return {key for row in snapshot.rows.all() for key in row.metrics or {}} - FIXED_COLUMNS


def standings_failure(league: League) -> StandingsFailure | None:
    """Why the table is stale: the failed recompute, if the last one failed."""
    return StandingsFailure.objects.filter(league=league).first()
