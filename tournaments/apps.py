"""The tournaments app's wiring: when Django is ready, its Celery tasks are registered (so a
service can queue a task by name in any process, the web's included)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues and tournaments"

    def ready(self) -> None:
        from tournaments import tasks  # noqa: F401  (registers the tasks with Celery)
