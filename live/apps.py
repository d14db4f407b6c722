"""The live-play app's configuration."""

from django.apps import AppConfig
from django.conf import settings


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Live play"

    def ready(self) -> None:
        from celery.signals import worker_ready

        from games.engine import set_table_dir
        from live import tasks  # noqa: F401  (registers the tasks with Celery)

        directory = settings.LIVE["TABLE_DIR"]
        set_table_dir(None if directory.strip().lower() == "off" else directory)
        worker_ready.connect(_warm_on_worker_start, weak=False, dispatch_uid="live-tables")


def warm_tables_on_start() -> None:
    """Compute the strong computer's missing tables in the background (``live.computer``)
    unless ``LIVE_WARM_TABLES`` is off: called when the ASGI server or a worker starts."""
    if settings.LIVE["WARM_TABLES"]:
        from live.computer import warm_tables

        warm_tables()


def sweep_in_process_on_start() -> None:
    """The embedded default (no broker, no beat): the ASGI server runs the sweep itself
    every LIVE_SWEEP_SECONDS (``live.signals.sweep_in_process``) — unless the embedded beat
    runs (``EMBEDDED_BEAT``, ``make run``): its schedule has the sweep already."""
    from live.signals import sweep_in_process

    if getattr(settings, "EMBEDDED_BEAT", False):
        return

    sweep_in_process(settings.LIVE["SWEEP_SECONDS"])


def _warm_on_worker_start(**_kwargs) -> None:
    warm_tables_on_start()
