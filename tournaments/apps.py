"""The tournaments app's wiring: when Django is ready, its Celery tasks are registered (so a
service can queue a task by name in any process, the web's included), and so are the
subscribers of counted results (``tournaments/services/counting.py``: every process has
the same registry, whatever it imported first)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues and tournaments"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from tournaments import tasks  # noqa: F401  (registers the tasks with Celery)
        from tournaments.selectors.search import register_sqlite_functions

        # the subscribers of counted results register themselves when imported (the order
        # is their own ``order``, not this import order)
        from tournaments.services import analyses  # noqa: F401

        # SQLite (the embedded mode) searches names without regard to accents
        connection_created.connect(register_sqlite_functions, dispatch_uid="maedn-sqlite-fold")
