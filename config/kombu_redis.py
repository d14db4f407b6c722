"""A workaround for a crash in kombu's Redis transport (kombu 5.7, Celery 5.7).

A worker that loses its Redis broker while it waits for messages **and** holds tasks it has
not acknowledged yet — tasks with a countdown, such as live play's steps and turn timers
(``LIVE_STEPS=celery``) — dies with ``Unrecoverable error: AttributeError("'NoneType'
object has no attribute 'hostname'")`` instead of reconnecting; its embedded beat dies with
it, so nothing runs any more (issue 23: after a Redis restart the rooms stayed stuck).

What happens: on the connection error Celery first ``collect()``s the connection — closing
its channel fails in the pending BRPOP read, and the transport is let go
(``transport.client = None``) — and then ``close()``s it, which closes that channel once
more. The second close hands the unacknowledged messages back to Redis through a new client
built from ``transport.client``: None. The ``AttributeError`` is not a connection error, so
nothing catches it.

The patch: with the transport let go there is no connection to hand anything back through,
so the channel forgets its unacknowledged messages instead. Redis keeps them in its
"unacked" set and delivers them again after the visibility timeout (a Redis that restarted
has lost them anyway; live play's sweep repairs every lost step). Anything else goes to
kombu's own code. ``tests/foundation/test_broker_restart.py`` kills Redis under a worker
in that state."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def patch_redis_restore() -> None:
    """Install the workaround (idempotent; a no-op without kombu's Redis transport)."""
    try:
        from kombu.transport import redis as transport  # noqa: PLC0415 (optional: a no-op without redis-py)
    except ImportError:  # pragma: no cover - redis-py not installed
        return
    original = transport.QoS.restore_unacked
    if getattr(original, "maedn_patched", False):
        return

    def restore_unacked(self, client=None):
        if client is None and getattr(self.channel.connection, "client", None) is None:
            if self._delivered:
                log.warning(
                    "broker connection closed: %d unacknowledged messages are left to the "
                    "broker's visibility timeout",
                    len(self._delivered),
                )
            self._delivered.clear()
            return None
        return original(self, client)

    restore_unacked.maedn_patched = True
    transport.QoS.restore_unacked = restore_unacked
