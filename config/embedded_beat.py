"""The periodic tasks without Celery beat, for the embedded default (``make run``).

In production ``celery -A config beat`` sends ``CELERY_BEAT_SCHEDULE`` to the workers. The
embedded default has no broker and no beat (tasks run in-process, eagerly), so deadline
reminders, overdue notices and the catch-ups never ran there. With ``EMBEDDED_BEAT=1``
(``make run`` sets it) the serving process starts one daemon thread that runs the same
schedule: each entry once at start-up, then every ``schedule`` seconds. It refuses to start
when a broker is configured: there beat is the one scheduler (several web processes would
each run one).

``EmbeddedBeat.run_pending(now)`` is the whole logic (tested without a thread)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings

from config.celery_app import app

logger = logging.getLogger(__name__)

_started: EmbeddedBeat | None = None


class EmbeddedBeat:
    def __init__(
        self,
        schedule: Mapping[str, Mapping[str, Any]],
        run_task: Callable[[str], Any],
        clock: Callable[[], float] = time.monotonic,
    ):
        self.schedule = {
            name: (entry["task"], float(entry["schedule"])) for name, entry in schedule.items()
        }
        self.run_task = run_task
        self.clock = clock
        self.next_run: dict[str, float] = {name: 0.0 for name in self.schedule}
        self._stop = threading.Event()

    def run_pending(self, now: float | None = None) -> list[str]:
        """Run every entry that is due (in name order); returns the names run. A failing
        task is logged and tried again at its next time, as beat would."""
        now = self.clock() if now is None else now
        ran = []
        for name in sorted(self.schedule):
            task, every = self.schedule[name]
            if self.next_run[name] > now:
                continue
            self.next_run[name] = now + every
            try:
                self.run_task(task)
            except Exception:
                logger.exception("embedded beat: %s (%s) failed", name, task)
            ran.append(name)
        return ran

    def seconds_to_next(self, now: float | None = None) -> float:
        now = self.clock() if now is None else now
        return max(0.5, min(self.next_run.values()) - now) if self.next_run else 60.0

    def loop(self) -> None:
        while not self._stop.is_set():
            self.run_pending()
            self._stop.wait(self.seconds_to_next())

    def stop(self) -> None:
        self._stop.set()


def _run_celery_task(name: str) -> Any:

    return app.tasks[name].apply(throw=True).result


def start_embedded_beat() -> EmbeddedBeat | None:
    """Start the thread when ``settings.EMBEDDED_BEAT`` is on (once per process)."""
    global _started

    if not getattr(settings, "EMBEDDED_BEAT", False) or _started is not None:
        return _started
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        logger.warning("EMBEDDED_BEAT is ignored: a broker is configured, run celery beat")
        return None
    _started = EmbeddedBeat(settings.CELERY_BEAT_SCHEDULE, _run_celery_task)
    threading.Thread(target=_started.loop, name="embedded-beat", daemon=True).start()
    logger.info("embedded beat: %s", ", ".join(sorted(_started.schedule)))
    return _started
