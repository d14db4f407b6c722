"""The live-play app's configuration."""

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Live play"

    def ready(self) -> None:
        from live import tasks  # noqa: F401  (registers the tasks with Celery)
