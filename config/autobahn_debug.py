"""Autobahn (Daphne's WebSocket protocol) builds the text of its debug lines for every
connection whether or not debug logging is on: ``pformat`` of its ~40 options in each
``connectionMade`` and ``hltype`` highlighting around the handshake — about 5 % of the
server's CPU per connect (py-spy under ``bench/online.py``'s connect phase). Installed by
``config/asgi.py``: the same text, built only when a line is written."""

from __future__ import annotations

from typing import Any


class _Lazy:
    """A value formatted by ``make`` only when it is turned into text."""

    __slots__ = ("args", "make")

    def __init__(self, make, *args: Any) -> None:
        self.make, self.args = make, args

    def __str__(self) -> str:
        return str(self.make(*self.args))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def install() -> None:
    try:
        from autobahn.websocket import protocol  # noqa: PLC0415 (optional: no autobahn without Daphne)
    except ImportError:  # no Daphne here
        return
    if getattr(protocol, "_maedn_lazy_debug", False):
        return
    pformat, hltype = protocol.pformat, protocol.hltype
    # in that module both only feed log arguments, but for Timings' own text
    protocol.pformat = lambda obj: _Lazy(pformat, obj)
    protocol.hltype = lambda obj: _Lazy(hltype, obj)
    protocol.Timings.__str__ = lambda self: pformat(self._timings)
    protocol._maedn_lazy_debug = True
