"""Reading ``maedn-log/1`` game logs (game-log.md): JSON in, a :class:`Setup` and events out.

Only the log *as a whole* is checked here (format, board, rules, colours,
players, unused, first, events list, size limits); events are checked one by
one while the engine replays them (:mod:`games.engine.validate`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._text import describe
from .rules import RulesError
from .setup import Setup, SetupError

FORMAT = "maedn-log/1"
MAX_LOG_BYTES = 2 * 1024 * 1024
"""Logs larger than this (as JSON text) are rejected unread."""
MAX_EVENTS = 20_000
"""Logs with more events than this are rejected (real games have well under 2,000)."""

_BIG = 10**100


class InvalidLog(ValueError):
    """A log that breaks the rules or the format. ``event`` is the offending index or ``None``."""

    def __init__(self, error: str, event: int | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.event = event

    def result(self) -> dict[str, Any]:
        """The validation result object of game-log.md for this defect."""
        out: dict[str, Any] = {"valid": False}
        if self.event is not None:
            out["event"] = self.event
        out["error"] = self.error
        return out


def _parse_int(text: str) -> int:
    # Python refuses to convert ints of more than 4300 digits; no real value is that long.
    if len(text) <= 300:
        return int(text)
    return -_BIG if text.startswith("-") else _BIG


def load_json(data: str | bytes | bytearray) -> Any:
    """Parse JSON text with the size guard. Raises :class:`InvalidLog` (no index)."""
    if isinstance(data, str):
        size = len(data) if len(data) * 4 <= MAX_LOG_BYTES else len(data.encode("utf-8", "replace"))
    else:
        size = len(data)
    if size > MAX_LOG_BYTES:
        raise InvalidLog(
            f"the log is {size:,} bytes; logs larger than {MAX_LOG_BYTES:,} bytes (2 MB) "
            "are not accepted"
        )
    if isinstance(data, str):
        data = data.removeprefix("\ufeff")  # a byte order mark is tolerated (RFC 8259)
    elif data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    try:
        return json.loads(data, parse_int=_parse_int)
    except RecursionError:
        raise InvalidLog("the log is not valid JSON: it is nested too deeply") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise InvalidLog(f"the log is not valid JSON: {exc}") from None


def read_log(log: object) -> tuple[Setup, list[Any]]:
    """The setup and the raw events of a log (a dict, or JSON as str/bytes).

    Raises :class:`InvalidLog` (``event is None``) for a defect of the log as a whole.
    """
    if isinstance(log, (str, bytes, bytearray)):
        log = load_json(log)
    if not isinstance(log, Mapping):
        raise InvalidLog(f"a log is a JSON object, not {describe(log)}")
    fmt = log.get("format")
    if fmt != FORMAT or not isinstance(fmt, str):
        if "format" not in log:
            raise InvalidLog(f'the log has no "format" (it should be "{FORMAT}")')
        raise InvalidLog(f'unknown log format {describe(fmt)} (expected "{FORMAT}")')
    for key in ("rules", "first", "events"):
        if key not in log:
            raise InvalidLog(f'the log has no "{key}"')
    board = log.get("board", 4)
    if isinstance(board, bool) or board not in (4, 6) or not isinstance(board, int):
        raise InvalidLog(f"board must be 4 or 6, not {describe(board)}")
    events = log["events"]
    if not isinstance(events, list):
        raise InvalidLog(f"events must be a list, not {describe(events)}")
    if len(events) > MAX_EVENTS:
        raise InvalidLog(
            f"the log has {len(events):,} events; more than {MAX_EVENTS:,} are not accepted"
        )
    unused = log.get("unused")
    if unused is not None and not isinstance(unused, list):
        raise InvalidLog(f"unused must be a list of colours, not {describe(unused)}")
    try:
        setup = Setup.create(
            board=board,
            rules=log["rules"],
            colours=log.get("colours"),
            players=log.get("players"),
            unused=unused,
            first=_first(log["first"]),
        )
    except (RulesError, SetupError) as exc:
        raise InvalidLog(str(exc)) from None
    return setup, events


def _first(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidLog(f"first must be a colour name, not {describe(value)}")
    return value
