"""The live-play app's configuration."""

from django.apps import AppConfig
from django.conf import settings


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Live play"

    def ready(self) -> None:
        from games.engine.evaluator import evaluator_for, evaluator_of  # noqa: PLC0415 (heavy: numpy and the network, warmed in ready() only)
        from games.engine.game import Game  # noqa: PLC0415 (with the evaluator, in ready() only)
        from live import tasks  # noqa: F401, PLC0415 (registers the tasks with Celery; app modules load models: only in ready())

        # the strong computer's models, loaded now (milliseconds) rather than in a room's
        # first decision: the model of every field and the league field's specialist
        evaluator_for("league")
        evaluator_of(Game.new("league"))


def sweep_in_process_on_start() -> None:
    """A server with a broker and ``LIVE_STEPS=process`` becomes a timer owner. The embedded
    default (no broker, no beat): the ASGI server runs the sweep itself every
    LIVE_SWEEP_SECONDS (``live.dispatch.sweep_in_process``) — unless the embedded beat
    runs (``EMBEDDED_BEAT``, ``make run``): its schedule has the sweep already."""
    from live.dispatch import own_timers, sweep_in_process  # noqa: PLC0415 (apps.py loads before the models: app modules at call time)
    from live.services.sweep import timer_owner_tick  # noqa: PLC0415 (apps.py loads before the models: app modules at call time)

    # with a broker and LIVE_STEPS=process this server is a timer owner: it renews its lease
    # and adopts the rooms of owners that died or of the worker's sweep (docs/live.md)
    own_timers(settings.LIVE["OWNER_SECONDS"], timer_owner_tick)
    if getattr(settings, "EMBEDDED_BEAT", False):
        return

    sweep_in_process(settings.LIVE["SWEEP_SECONDS"])
