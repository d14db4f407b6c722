"""Dispatch out of a request or consumer: sending to a room's channel-layer group
(``group_send``) and scheduling a room's next step (``later``: a Celery task with a
countdown, or the in-process timer thread). No Django signals (it was ``live/signals.py``).

Both work from any thread: a consumer's worker thread, a Celery worker, or the in-process
timer thread of the embedded default. A service never imports a task; it asks for one by
name (``live.room_step``, ``live.seat_grace``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from live.errors import log_failure, one_line

log = logging.getLogger(__name__)

#: the event loop of this process's ASGI server, once a consumer has connected
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called from a consumer (inside the server's loop)."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to everyone in ``group`` (best effort: a lost broadcast is repaired
    by the next one, every message carries the whole state, and a page that hears nothing
    asks for the state).

    A Redis layer is driven from one long-lived event loop per process (a daemon thread),
    whatever thread calls: ``async_to_sync`` would make a new loop, and so new Redis
    connections, for every message. The caller waits at most ``BROADCAST_WAIT`` for the
    send (so broadcasts keep their order while Redis answers); a hung Redis no longer holds
    the timer thread that made the move — the send goes on in the background (``SEND_TIMEOUT``
    each try, a second try on a fresh connection), at most ``MAX_PENDING`` at once, and a
    failure is one warning line. The in-memory layer (one process, ``make run``) must be
    used from the server's own loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    if type(layer).__name__ == "InMemoryChannelLayer":
        try:
            loop = _server_loop
            if _in_server_worker_thread() or loop is None or not loop.is_running():
                async_to_sync(layer.group_send)(group, message)
            else:
                asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(5)
        except Exception as exc:
            log_failure(log, exc, "live: broadcast to %s failed", group)
        return
    global _pending
    with _pending_lock:
        if _pending >= MAX_PENDING:
            log.warning("live: broadcast to %s dropped: %s sends wait for Redis", group, _pending)
            return
        _pending += 1
    future = asyncio.run_coroutine_threadsafe(_send_twice(layer, group, message), _sender_loop())
    future.add_done_callback(lambda done: _sent(done, group))
    if _stuck.is_set():  # Redis hangs: nobody waits again until a send has got through
        return
    try:
        future.result(BROADCAST_WAIT)
    except concurrent.futures.TimeoutError:  # it goes on in the background
        _stuck.set()
    except Exception:  # a failure: _sent logs it
        pass


#: how long the thread that broadcasts waits for the send; one try's limit; sends at once
BROADCAST_WAIT = 1.0
#: set when a send took longer than BROADCAST_WAIT (a hung Redis), cleared by the next send
#: that ends otherwise than in a timeout: meanwhile no thread waits (a timer thread waiting
#: 1 s a move made every room late by up to 9 s in a 20 s hang: --phases faults)
_stuck = threading.Event()
SEND_TIMEOUT = 5.0
MAX_PENDING = 2000
_pending = 0
_pending_lock = threading.Lock()


async def _send_twice(layer, group: str, message: dict[str, Any]) -> None:
    try:
        await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)
    except Exception:  # a connection broken by a Redis restart: once more, anew
        await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)


#: broadcasts that timed out since the last that did not (one line for a whole hang)
_timed_out = 0


def _sent(done, group: str) -> None:
    """A send ended (on the sender loop's thread): a failure is one warning line, and the
    sends a hung Redis timed out are one line when it starts and one when it ends."""
    global _pending, _timed_out
    with _pending_lock:
        _pending -= 1
    exc = None if done.cancelled() else done.exception()
    hung = isinstance(exc, TimeoutError)
    if not done.cancelled() and not hung:
        _stuck.clear()  # Redis answered (or refused: it is not hung)
        if _timed_out > 1:
            log.warning("live: broadcasts get through again; %s timed out meanwhile", _timed_out)
        _timed_out = 0
    _timed_out += hung
    if exc is not None and _timed_out <= 1:  # the game goes on, clients resync
        log_failure(log, exc, "live: broadcast to %s failed", group)


_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _sender
    with _sender_lock:
        if _sender is None or _sender.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="live-sender", daemon=True).start()
            _sender = loop
        return _sender


def _in_server_worker_thread() -> bool:
    """True in a thread that asgiref's ``sync_to_async`` runs for an event loop."""

    return getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def later(task: str, args: list[Any], delay: float) -> None:
    """Run the task ``task`` with ``args`` after ``delay`` seconds: through the broker with
    a countdown in production, on this process's timer (a heap and a few worker threads
    with their own database connections) in the embedded default.

    Never raises: a broker that is down loses the task (logged), and the sweep steps the
    room once it is late (``live.rooms_sweep``) — the move that asked has committed."""
    delay = max(0.0, float(delay))
    if not _eager() and not (task in IN_PROCESS_TASKS and _steps_in_process()):
        try:
            current_app.send_task(task, args=args, countdown=delay)
        except Exception as exc:
            log.warning(
                "live: %s%r not sent (broker down?); the sweep repairs it: %s",
                task,
                args,
                one_line(exc),
            )
        return
    _timer().add(time.monotonic() + delay, task, args)


#: what LIVE_STEPS=process runs on this process's own timer even with a broker: a room's
#: steps and grace periods (small, frequent, latency-bound); the end of a game stays a task
IN_PROCESS_TASKS = frozenset({"live.room_step", "live.seat_grace"})


def _steps_in_process() -> bool:

    return settings.LIVE.get("STEPS") == "process"


#: this process's name as a timer owner (``own_timers``), "" when it is not one
_owner = ""


def owner_name() -> str:
    """The name this process holds rooms' timers under ("" when it is not a timer owner:
    a worker, a web process, the embedded default)."""
    return _owner


def hands_rooms_back() -> bool:
    """True in a process that steps rooms on its own timer with a broker but is not a timer
    owner (the Celery worker whose sweep moved a room, a web process that started one): a
    room it moves goes back to a live owner instead of staying on this process's timer."""
    return not _owner and not _eager() and _steps_in_process()


def own_timers(every: float, tick: Callable[[str], Any]) -> None:
    """Make this process a timer owner (an ASGI server with ``LIVE_STEPS=process`` and a
    broker): every ``every`` seconds ``tick(name)`` renews its lease and adopts the rooms
    of owners whose lease ran out (``live.services.sweep.timer_owner_tick``)."""
    global _owner
    if _eager() or not _steps_in_process() or every <= 0:
        return
    with _timer_lock:
        if _owner:
            return
        _owner = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
    name = _owner

    def run() -> None:
        while True:
            try:
                tick(name)
            except Exception as exc:
                log_failure(log, exc, "live: the timer owner's lease or adoption failed")
                connections.close_all()
            time.sleep(every)

    threading.Thread(target=run, name="live-owner", daemon=True).start()


_sweeping = False


def sweep_in_process(every: float) -> None:
    """Without a broker (the embedded default) there is no beat: the ASGI server's own
    thread runs the sweep (``live.rooms_sweep``) every ``every`` seconds, so the rooms of
    a server that died, or of a lost timer, move again. With a broker, beat runs it."""
    global _sweeping
    if not _eager() or every <= 0:
        return
    with _timer_lock:
        if _sweeping:
            return
        _sweeping = True

    def run() -> None:
        while True:
            time.sleep(every)
            try:
                current_app.tasks["live.rooms_sweep"].run()
            except Exception as exc:
                log_failure(log, exc, "live: the in-process sweep failed")
                connections.close_all()

    threading.Thread(target=run, name="live-sweep", daemon=True).start()


class _Timer:
    """One scheduler thread per process; due tasks run on a small thread pool, so the
    number of database connections stays bounded however many rooms are playing."""

    def __init__(self, workers: int) -> None:
        self.heap: list[tuple[float, int, str, list[Any]]] = []
        self.cond = threading.Condition()
        self.count = 0
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="live-timer")
        threading.Thread(target=self._run, name="live-scheduler", daemon=True).start()

    def add(self, at: float, task: str, args: list[Any]) -> None:
        with self.cond:
            self.count += 1
            heapq.heappush(self.heap, (at, self.count, task, args))
            self.cond.notify()

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.heap or self.heap[0][0] > time.monotonic():
                    self.cond.wait(None if not self.heap else self.heap[0][0] - time.monotonic())
                _, _, task, args = heapq.heappop(self.heap)
            self.pool.submit(self._call, task, args)

    @staticmethod
    def _call(task: str, args: list[Any]) -> None:
        # The pool threads keep their database connections (no per-task health check: that
        # is a round trip per roll); a failed task drops them, the next one reconnects.
        try:
            current_app.tasks[task].run(*args)
        except Exception as exc:
            log_failure(log, exc, "live: in-process task %s%r failed", task, args)
            connections.close_all()

    def close_connections(self) -> None:
        """Close the database connection of every pool thread (each thread takes one of
        the jobs: they wait for each other), e.g. before a test database is dropped."""
        workers = self.workers
        barrier = threading.Barrier(workers)

        def close() -> None:
            connections.close_all()
            barrier.wait(timeout=10)

        for job in [self.pool.submit(close) for _ in range(workers)]:
            try:
                job.result(timeout=15)
            except (threading.BrokenBarrierError, TimeoutError):
                log.warning("live: a timer thread was busy and kept its connection")


def timer_close_connections() -> None:
    """The in-process timer's threads let go of their database connections (if it runs)."""
    with _timer_lock:
        timer = _timer_instance
    if timer is not None:
        timer.close_connections()


_timer_instance: _Timer | None = None
_timer_lock = threading.Lock()


def _timer() -> _Timer:
    global _timer_instance
    with _timer_lock:
        if _timer_instance is None:
            _timer_instance = _Timer(int(os.environ.get("LIVE_TIMER_THREADS", "4")))
        return _timer_instance
