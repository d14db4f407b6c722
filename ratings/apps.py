"""The ratings app's wiring: when Django is ready, its Celery task is registered (so a
service can queue it by name in any process, the web's included), and its subscriber of
counted results (``tournaments/services/counting.py``) registers itself."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import tasks  # noqa: F401, PLC0415 (registers the task with Celery; loads models: only in ready())
        from ratings.services import ratings  # noqa: F401, PLC0415 (the counting subscriber; loads models: only in ready())
