"""Folding the per-session revision counters (``PlayersRevision``, ``SiteRevision``): each
database session that ever raised a revision has a row of its own, so the tables grow with
the connections a site ever opened. ``revisions_fold`` moves the counts of every session
that has ended into row 0 (no server process has id 0), in one statement per table: a
reader's snapshot sees the rows before or after it, never between, so the sum — the
revision — never changes by a fold, and it keeps only growing. A session still running
keeps its row (its next raise adds to it); an ended session's id taken again by a new one
before the fold keeps its row too (it is a live session's). Run periodically (the beat's
``revisions-fold``)."""

from __future__ import annotations

from django.db import connection, transaction

#: one statement: the ended sessions' rows deleted, their sum added to row 0
FOLD_SQL = """
WITH gone AS (
    DELETE FROM {table}
    WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity)
    RETURNING n
)
INSERT INTO {table} (backend, n)
    SELECT 0, sum(n) FROM gone HAVING count(*) > 0
    ON CONFLICT (backend) DO UPDATE SET n = {table}.n + EXCLUDED.n
"""

TABLES = ("tournaments_playersrevision", "tournaments_siterevision")


def revisions_fold() -> dict[str, int]:
    """Fold the ended sessions' counters of each table into row 0; the rows left per
    table. Nothing on a database that keeps no revision (SQLite)."""
    if connection.vendor != "postgresql":
        return {}
    left = {}
    with transaction.atomic(), connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(FOLD_SQL.format(table=table))
            cursor.execute(f"SELECT count(*) FROM {table}")
            left[table] = cursor.fetchone()[0]
    return left
