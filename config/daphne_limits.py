"""A WebSocket connection's message rate, enforced where Daphne parses its frames.

The consumer counts messages too (``live/consumers.py``, a token bucket closing with 4429),
but it counts them as it handles them, and through Daphne it handles them behind the
parser: a client that sends without pause (and never reads) keeps Daphne's event loop
parsing its frames, so the consumer got about ten messages a second, never reached its
limit, and the other rooms on that server waited up to a second (``bench/online.py
--phases flood``). Here every frame is counted as Daphne parses it, with the same limits
(``LIVE_MESSAGES_PER_SECOND``, ``LIVE_MESSAGE_BURST``): over them the connection is
closed with 4429 at once, the frames that arrived with the one over the limit are not even
parsed, its socket is no longer read, and autobahn drops it after its close-handshake
timeout (1 s). Installed by
``config/asgi.py``; a no-op without Daphne."""

from __future__ import annotations

import contextlib
import time

from django.conf import settings

from live import consumers
from live.consumers import address_charge

CLOSE_TOO_MANY = 4429  # as live.consumers.CLOSE_TOO_MANY

#: what a socket paused for its address's budget reads at a time once resumed (a `state`
#: request is 22 bytes on the wire; the largest frame allowed, 2 KB, takes a few reads)
PAUSED_READ_BYTES = 256

#: frames that change a room: never dropped for an address's budget (the consumer refuses
#: nothing for it under Daphne; each is still within its socket's own limit)
_CHANGES = (b'"move"', b'"take"', b'"leave"', b'"start"')


def install() -> None:
    try:
        from daphne.ws_protocol import WebSocketProtocol  # noqa: PLC0415 (optional: Daphne may be absent)
    except ImportError:
        return
    if getattr(WebSocketProtocol, "_maedn_rate_limited", False):
        return
    from twisted.internet import reactor  # noqa: PLC0415 (importing it installs the default reactor: only after Daphne chose its own)

    consumers.ADDRESS_COUNTED_BY_SERVER = True  # counted here, not again in the consumer
    on_message = WebSocketProtocol.onMessage

    def rate_limited_on_message(self, payload, is_binary):
        if getattr(self, "_maedn_over", False):
            return  # closed for flooding: nothing more is handed to the application
        now = time.monotonic()
        rate = float(settings.LIVE["MESSAGES_PER_SECOND"])
        burst = float(settings.LIVE["MESSAGE_BURST"])
        allowance = getattr(self, "_maedn_allowance", burst)
        checked = getattr(self, "_maedn_checked", now)
        allowance = min(burst, allowance + (now - checked) * rate)
        self._maedn_checked = now
        if allowance < 1:
            self._maedn_over = True
            self.sendClose(code=CLOSE_TOO_MANY)
            # the frames read with this one are not parsed (autobahn's parser goes on while
            # its buffer has data; this is called between two frames), and no more are read:
            # autobahn drops the connection after its close-handshake timeout (1 s)
            self.data = b""
            with contextlib.suppress(Exception):  # a transport without flow control
                self.transport.pauseProducing()
            return
        self._maedn_allowance = allowance - 1
        # the address's budget (LIVE_MESSAGES_PER_ADDRESS, all its sockets to this process),
        # charged for every frame parsed: over it, a read is dropped here, before the
        # application is woken for it, and this socket is not read until the debt is paid
        address = self.client_addr[0] if getattr(self, "client_addr", None) else None
        left = address_charge(address)
        if left < 0:
            rate = float(settings.LIVE["MESSAGES_PER_ADDRESS"])
            not_read(self, min(-left / rate, float(settings.LIVE["ADDRESS_MAX_PAUSE"])))
            if not any(c in payload for c in _CHANGES):
                return
        on_message(self, payload, is_binary)

    def not_read(protocol, seconds: float) -> None:
        """The cheapest refusal: the socket is not read for ``seconds`` (what its client
        sends meanwhile waits in the kernel's buffers, and once they are full the client
        cannot send), then read a few bytes at a time, so a paused socket that is resumed
        hands the parser a few frames, not a backlog; any frame it sends while its address
        is still over budget pauses it again."""
        if getattr(protocol, "_maedn_paused", False):
            return  # frames read before the pause, parsed now
        transport = protocol.transport
        protocol._maedn_paused = True
        with contextlib.suppress(Exception):  # a transport without flow control
            transport.bufferSize = PAUSED_READ_BYTES
            transport.pauseProducing()

        def resume() -> None:
            protocol._maedn_paused = False
            if not getattr(protocol, "_maedn_over", False):
                with contextlib.suppress(Exception):
                    transport.resumeProducing()

        reactor.callLater(seconds, resume)

    WebSocketProtocol.onMessage = rate_limited_on_message
    WebSocketProtocol._maedn_rate_limited = True
