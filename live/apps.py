"""The live-play app's configuration."""

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Live play"

    def ready(self) -> None:
        from games.engine.evaluator import evaluator_for
        from live import tasks  # noqa: F401  (registers the tasks with Celery)

        # the strong computer's model, loaded now (milliseconds) rather than in a room's
        # first decision
        evaluator_for("league")
