"""Testing a data migration: rows written under the schema before it, read after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


class Migration:
    """The models before (``old``) and, once :meth:`run`, after (``new``) the migration."""

    def __init__(self, app: str, before: str, after: str) -> None:
        self.app, self.before, self.after = app, [(app, before)], [(app, after)]
        executor = MigrationExecutor(connection)
        executor.migrate(self.before)
        self.old = executor.loader.project_state(self.before).apps
        self.new = None

    def run(self):
        executor = MigrationExecutor(connection)
        executor.migrate(self.after)
        self.new = executor.loader.project_state(self.after).apps
        return self.new


@contextmanager
def migration(app: str, before: str, after: str) -> Iterator[Migration]:
    """The schema at ``before``; the body writes rows with ``m.old`` and calls ``m.run()``;
    afterwards the schema is back at the latest migrations, whatever happened."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        yield Migration(app, before, after)
    finally:
        MigrationExecutor(connection).migrate(latest)
