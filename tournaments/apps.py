"""The tournaments app's wiring: when Django is ready, its Celery tasks are registered (so a
service can queue a task by name in any process, the web's included), and so are the
subscribers of counted results (``tournaments/services/counting.py``: every process has
the same registry, whatever it imported first)."""

from django.apps import AppConfig
from django.db.backends.signals import connection_created


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues and tournaments"

    def ready(self) -> None:

        from tournaments import tasks  # noqa: F401, PLC0415 (registers the tasks with Celery; loads models: only in ready())
        from tournaments.selectors.search import register_sqlite_functions  # noqa: PLC0415 (loads models: only in ready())

        # the subscribers of counted results register themselves when imported (the order
        # is their own ``order``, not this import order)
        from tournaments.services import analyses  # noqa: F401, PLC0415 (the counting subscriber; loads models: only in ready())

        # SQLite (the embedded mode) searches names without regard to accents
        connection_created.connect(register_sqlite_functions, dispatch_uid="maedn-sqlite-fold")
