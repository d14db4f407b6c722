"""Sending to a room's channel-layer group and scheduling a room's next step (timers).

Both work from any thread: a consumer's worker thread, a Celery worker, or the in-process
timer thread of the embedded default. A service never imports a task; it asks for one by
name (``live.room_step``, ``live.seat_grace``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

#: the event loop of this process's ASGI server, once a consumer has connected
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called from a consumer (inside the server's loop)."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to everyone in ``group`` (best effort: a lost broadcast is repaired
    by the next one, every message carries the whole state)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    try:
        if _in_server_worker_thread() or loop is None or not loop.is_running():
            async_to_sync(layer.group_send)(group, message)  # via the server's loop if any
        else:  # a timer thread of this server process: hand the send to the server's loop
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(5)
    except Exception:  # the channel layer is down: the game goes on, clients resync
        log.exception("live: broadcast to %s failed", group)


def _in_server_worker_thread() -> bool:
    """True in a thread that asgiref's ``sync_to_async`` runs for an event loop."""
    from asgiref.sync import SyncToAsync

    return getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def later(task: str, args: list[Any], delay: float) -> None:
    """Run the task ``task`` with ``args`` after ``delay`` seconds: through the broker with
    a countdown in production, on an in-process timer thread in the embedded default."""
    delay = max(0.0, float(delay))
    if not _eager():
        current_app.send_task(task, args=args, countdown=delay)
        return

    def run() -> None:
        close_old_connections()
        try:
            current_app.tasks[task].apply(args=args)
        except Exception:
            log.exception("live: in-process task %s%r failed", task, args)
        finally:
            connections.close_all()

    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()
