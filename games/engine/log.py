"""Reading and writing ``maedn-log/1`` game logs (game-log.md), in one module.

Reading: JSON in, a :class:`Setup` and events out (:func:`read_log`). Only the log *as a
whole* is checked here (format, board, rules, colours, players, unused, first, events
list, size limits); events are checked one by one while the engine replays them
(:mod:`games.engine.validate`).

Writing: :class:`LogRecord` is a log as written (its header fields as given, its events
and meta); :func:`write_log` builds the log dict from a setup, the events and meta, and
:func:`log_dumps` gives its canonical JSON text. Everything that writes a log (live
rooms, simulation, the command line, the dice demonstration) writes it through these,
so every log has the same key order and text. The two round-trip:
``LogRecord.read(write_log(setup, events, meta))`` gives back that setup and those events,
and ``log_dumps(LogRecord.read(text).to_dict()) == text`` for a canonical ``text``.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._text import describe
from ._text import safe_text as _safe_text
from .codes import code_of, coded
from .rules import RulesError
from .setup import Setup, SetupError

FORMAT = "maedn-log/1"
MAX_LOG_BYTES = 2 * 1024 * 1024
"""Logs larger than this (as JSON text, UTF-8 bytes) are rejected unread (game-log.md: 2 MB)."""
MAX_EVENTS = 50_000
"""Logs with more events than this are rejected (game-log.md; a league game averages ~600)."""

_BIG = 10**400
"""What an integer of more than 309 digits is read as: beyond every finite double, so it is
never a valid die, position or time."""
MAX_INT_DIGITS = 4300
"""Integers with more digits are refused where they stand: Python's JSON reader (and so
every consumer of a stored log) refuses to convert them."""
_TOO_LONG = 10 ** (MAX_INT_DIGITS + 1)
"""What such an integer is read as, until it is refused: longer than any integer Python's
reader converts, so no integer of the text is ever equal to it."""


def size_text(size: int) -> str:
    """A byte count in words for messages: ``2,097,152 bytes (2 MB)``."""
    mb = size / (1024 * 1024)
    return f"{size:,} bytes ({mb:g} MB)" if mb >= 1 else f"{size:,} bytes"


class InvalidLog(ValueError):
    """A log that breaks the rules or the format. ``event`` is the offending index or ``None``."""

    def __init__(self, error: str, event: int | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.event = event

    @property
    def code(self) -> str | None:
        """The message's code (``games.engine.codes``), or None for an uncoded one."""
        return code_of(self.error)[0]

    @property
    def params(self) -> dict[str, Any]:
        """The message's parameters, as JSON data."""
        return code_of(self.error)[1]

    def result(self) -> dict[str, Any]:
        """The validation result object of game-log.md for this defect."""
        out: dict[str, Any] = {"valid": False}
        if self.event is not None:
            out["event"] = self.event
        out["error"] = self.error
        return out


class Events(list):
    """A log's events, cut off before the first event holding a value that is not JSON.

    ``defect`` is ``(index, message)`` of that event — ``NaN``, ``Infinity``,
    ``-Infinity`` (which Python's JSON reader accepts and RFC 8259 does not), a number
    too large for a double (``1e999``) or an integer of more than
    :data:`MAX_INT_DIGITS` digits (which Python's reader refuses) — or ``None``. The
    events before it are replayed first, so an earlier illegal event is still the one
    reported.
    """

    defect: tuple[int, str] | None = None


def _parse_int(text: str) -> int:
    # JSON has no leading zeros: more than 309 digits is more than any finite double.
    if len(text) <= 309 or (len(text) == 310 and text[0] == "-"):
        return int(text)
    return -_BIG if text.startswith("-") else _BIG


def _utf8_text(data: bytes | bytearray) -> str:
    """The log's bytes as text: UTF-8, a leading byte-order mark ignored, UTF-16 refused."""
    head = bytes(data[:4])
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(head) >= 2 and 0 in head):
        raise InvalidLog(coded("log_utf16"))
    try:
        return bytes(data).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InvalidLog(coded("log_not_utf8", byte=f"{exc.start:,}")) from None


def load_json(data: str | bytes | bytearray) -> Any:
    """Parse JSON text with the size guard. Raises :class:`InvalidLog` (no index).

    Bytes must be UTF-8 (a leading byte-order mark is ignored, UTF-16 is refused). A JSON
    object with the same key twice is refused (game-log.md: a malformed log).
    ``NaN``/``Infinity`` literals, numbers too large for a double (``1e999``) and
    integers of more than :data:`MAX_INT_DIGITS` digits are read here and refused by
    :func:`read_log` where they stand.
    """
    return _load(data)[0]


class DuplicateKey(ValueError):
    """A JSON object with the same key twice (game-log.md: a malformed log)."""

    def __init__(self, key: str, keys: list[str]) -> None:
        super().__init__(key)
        self.key = key
        self.keys = keys


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of the log reader: the object as a dict, refusing a key that
    appears twice (two JSON readers would keep different values)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key, [k for k, _ in pairs])
            seen.add(key)
    return obj


def _duplicate_message(exc: DuplicateKey) -> str:
    keys = list(dict.fromkeys(exc.keys))
    shown = ", ".join(f'"{describe_path(k)}"' for k in keys[:6]) + (", …" if len(keys) > 6 else "")
    return coded("duplicate_key", key=describe_path(exc.key), keys=shown)


def _byte_size(data: str | bytes | bytearray) -> int:
    """The size of a log in UTF-8 bytes (a short text's is not computed: it is small)."""
    if not isinstance(data, str):
        return len(data)
    return len(data) if len(data) * 4 <= MAX_LOG_BYTES else len(data.encode("utf-8", "replace"))


def _load(data: str | bytes | bytearray) -> tuple[Any, bool]:
    """The parsed JSON and whether it holds a NaN or an infinite number."""
    size = _byte_size(data)
    if size > MAX_LOG_BYTES:
        raise InvalidLog(coded("log_too_large", size=f"{size:,}", limit=size_text(MAX_LOG_BYTES)))
    text = data.removeprefix("\ufeff") if isinstance(data, str) else _utf8_text(data)
    seen: list[str] = []

    def constant(name: str) -> float:
        seen.append(name)
        return float(name)

    def integer(text: str) -> int:
        if len(text) <= 309:
            return int(text)
        if len(text.lstrip("-")) > MAX_INT_DIGITS:
            seen.append("a long integer")
            return -_TOO_LONG if text.startswith("-") else _TOO_LONG
        return _parse_int(text)

    def number(text: str) -> float:
        value = float(text)
        if value - value != 0:  # 1e999 and the like: infinite
            seen.append(text)
        return value

    # Integers are read by the C reader (fast) unless one is longer than Python converts:
    # then the text is read again with ``integer``, which marks it to be refused.
    fast_ints = 0 < sys.get_int_max_str_digits() <= MAX_INT_DIGITS
    try:
        try:
            loaded = json.loads(
                text,
                parse_int=int if fast_ints else integer,
                parse_float=number,
                parse_constant=constant,
                object_pairs_hook=_unique_keys,
            )
        except ValueError as exc:
            if isinstance(exc, (json.JSONDecodeError, DuplicateKey)) or not fast_ints:
                raise
            seen.clear()
            loaded = json.loads(
                text,
                parse_int=integer,
                parse_float=number,
                parse_constant=constant,
                object_pairs_hook=_unique_keys,
            )
        return loaded, bool(seen)
    except DuplicateKey as exc:
        raise InvalidLog(_duplicate_message(exc)) from None
    except RecursionError:
        raise InvalidLog(coded("json_too_deep")) from None
    except json.JSONDecodeError as exc:  # the parser's own words are English: line and column
        raise InvalidLog(coded("json_syntax", line=exc.lineno, column=exc.colno)) from None
    except (ValueError, TypeError) as exc:
        raise InvalidLog(coded("not_json", why=str(exc))) from None


def _not_json(value: Any, path: str, depth: int = 0) -> tuple[str, str] | None:
    """Where in ``value`` a number sits that JSON readers can't hold — NaN, infinite, or an
    integer too long to convert — as ``(path, what it is)``; ``None`` if nowhere."""
    t = type(value)
    if t is float or t is int:
        what = _bad_number(value)
        return None if what is None else (path, what)
    if depth > 100:
        return None
    if t is dict:
        items = ((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    elif t is list:
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for where, v in items:
        found = _not_json(v, where, depth + 1)
        if found is not None:
            return found
    return None


def _bad_number(value: float) -> str | None:
    """What a number is that JSON readers can't hold, ``None`` for a good one."""
    if value != value:
        return "NaN, which is not a JSON number"
    if value in (math.inf, -math.inf):
        return "infinite (Infinity, -Infinity, or too large like 1e999): not a JSON number"
    if value in (_TOO_LONG, -_TOO_LONG):
        return f"an integer of more than {MAX_INT_DIGITS:,} digits, too long to read"
    return None


def _refuse_non_json_header(log: Mapping[str, Any]) -> None:
    """For a JSON text with such a number: a whole-log defect outside the events."""
    for key, value in log.items():
        if key == "events":
            continue
        found = _not_json(value, str(key))
        if found is not None:
            raise InvalidLog(coded("json_bad_value", path=describe_path(found[0]), what=found[1]))


def _cut_at_non_json(events: list[Any]) -> Events | None:
    """For a JSON text with such a number: the events cut off at the first event holding
    one (``None`` if none does)."""
    if not isinstance(events, list):
        return None
    for i, ev in enumerate(events):
        found = _not_json(ev, "")
        if found is not None:
            cut = Events(events[:i])
            cut.defect = (i, f'the event\'s "{describe_path(found[0])}" is {found[1]}')
            return cut
    return None


def describe_path(path: str) -> str:
    return _safe_text(path, 60)


def read_log(log: object) -> tuple[Setup, list[Any]]:
    """The setup and the raw events of a log (a dict, or JSON as str/bytes).

    Raises :class:`InvalidLog` (``event is None``) for a defect of the log as a whole.
    The events may be :class:`Events` cut off at an event that holds a value that is
    not JSON (its ``defect`` says where and why).
    """
    return read_log_parsed(log)[1:]


def read_log_parsed(log: object) -> tuple[Mapping[str, Any], Setup, list[Any]]:
    """:func:`read_log`, also returning the parsed log (the dict itself for a dict)."""
    non_json = False
    if isinstance(log, (str, bytes, bytearray)):
        log, non_json = _load(log)
    if not isinstance(log, Mapping):
        raise InvalidLog(coded("log_not_object", what=describe(log)))
    if non_json:
        _refuse_non_json_header(log)
    _check_format(log)
    board = _board(log)
    events = _events(log)
    setup = _setup(log, board)
    if non_json:
        events = _cut_at_non_json(events) or events
    return log, setup, events


def _check_format(log: Mapping[str, Any]) -> None:
    """The log is a ``maedn-log/1`` log with the keys it can't do without."""
    fmt = log.get("format")
    if fmt != FORMAT or not isinstance(fmt, str):
        if "format" not in log:
            raise InvalidLog(coded("no_format", expected=FORMAT))
        raise InvalidLog(coded("unknown_format", what=describe(fmt), expected=FORMAT))
    for key in ("rules", "first", "events"):
        if key not in log:
            raise InvalidLog(coded("malformed", field=key))


def _board(log: Mapping[str, Any]) -> int:
    board = log.get("board", 4)
    if isinstance(board, bool) or board not in (4, 6) or not isinstance(board, int):
        raise InvalidLog(coded("bad_board", what=describe(board)))
    return board


def _events(log: Mapping[str, Any]) -> list[Any]:
    events = log["events"]
    if not isinstance(events, list):
        raise InvalidLog(coded("events_not_list", what=describe(events)))
    if len(events) > MAX_EVENTS:
        raise InvalidLog(coded("too_many_events", n=f"{len(events):,}", limit=f"{MAX_EVENTS:,}"))
    return events


def _setup(log: Mapping[str, Any], board: int) -> Setup:
    """The log's header as a checked :class:`Setup` (its refusals as :class:`InvalidLog`)."""
    unused = log.get("unused")
    if unused is not None and not isinstance(unused, list):
        raise InvalidLog(coded("unused_not_list", what=describe(unused)))
    try:
        return Setup.create(
            board=board,
            rules=log["rules"],
            colours=log.get("colours"),
            players=log.get("players"),
            unused=unused,
            first=_first(log["first"]),
        )
    except (RulesError, SetupError) as exc:
        raise InvalidLog(exc.args[0]) from None  # a coded message keeps its code


def _first(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidLog(coded("first_not_colour", what=describe(value)))
    return value


# --- writing --------------------------------------------------------------------------------

LOG_KEYS = ("format", "board", "rules", "colours", "players", "unused", "first", "meta", "events")
"""The order of a written log's keys: the header in game-log.md's order, then ``meta``, then
the (long) ``events`` last, so the header and meta read first in the text."""


@dataclass
class LogRecord:
    """A ``maedn-log/1`` log as written: its header fields as given (``None``: not written,
    the spec's default applies), its events and its meta.

    :meth:`of` builds one from a :class:`Setup`; :meth:`read` from a log (validating its
    header as :func:`read_log` does); :meth:`to_dict` writes it, :meth:`dumps` as text.
    """

    rules: str | Mapping[str, Any]
    first: str
    events: list[Any] = field(default_factory=list)
    board: int | None = None
    colours: Sequence[str] | None = None
    players: Mapping[str, Sequence[str]] | None = None
    unused: Sequence[str] | None = None
    meta: Mapping[str, Any] | None = None

    @classmethod
    def of(
        cls,
        setup: Setup,
        events: Iterable[Any] = (),
        meta: Mapping[str, Any] | None = None,
        *,
        colours: bool = True,
    ) -> LogRecord:
        """The log of a game set up as ``setup``: the shortest ``rules`` giving its rule
        set, its colours (unless ``colours=False``: the board's default colours are meant),
        its named players, its unused colours and its first colour."""
        return cls(
            rules=setup.rules.to_spec(),
            first=setup.colours[setup.first],
            events=list(events),
            board=setup.board.size,
            colours=list(setup.colours) if colours else None,
            players={p: list(cs) for p, cs in setup.named_players.items()} or None,
            unused=[setup.colours[s] for s in sorted(setup.unused)] or None,
            meta=meta,
        )

    @classmethod
    def read(cls, log: object) -> LogRecord:
        """The log (a dict, or JSON text) as written. Raises :class:`InvalidLog` for a
        defect of the log as a whole; its events are not replayed here. Top-level keys
        the format does not know are not kept."""
        parsed, _setup, events = read_log_parsed(log)
        meta = parsed.get("meta")
        return cls(
            rules=parsed["rules"],
            first=parsed["first"],
            events=list(events),
            board=parsed.get("board"),
            colours=parsed.get("colours"),
            players=parsed.get("players"),
            unused=parsed.get("unused"),
            meta=meta if isinstance(meta, Mapping) else None,
        )

    def setup(self) -> Setup:
        """The game's :class:`Setup` (raises :class:`InvalidLog` as the reader does)."""
        return read_log(self.to_dict())[0]

    def to_dict(self) -> dict[str, Any]:
        """The ``maedn-log/1`` log: keys in :data:`LOG_KEYS` order, unset fields left out."""
        log: dict[str, Any] = {"format": FORMAT}
        if self.board is not None:
            log["board"] = self.board
        log["rules"] = self.rules
        if self.colours is not None:
            log["colours"] = list(self.colours)
        if self.players is not None:
            log["players"] = {p: list(cs) for p, cs in self.players.items()}
        if self.unused is not None:
            log["unused"] = list(self.unused)
        log["first"] = self.first
        if self.meta is not None:
            log["meta"] = self.meta
        log["events"] = self.events
        return log

    def dumps(self) -> str:
        """The log's canonical JSON text (:func:`log_dumps`)."""
        return log_dumps(self.to_dict())


def write_log(
    setup: Setup,
    events: Iterable[Any],
    meta: Mapping[str, Any] | None = None,
    *,
    colours: bool = True,
) -> dict[str, Any]:
    """The ``maedn-log/1`` log (a dict) of a game set up as ``setup`` with these events
    and meta (``None``: no ``meta`` key): :meth:`LogRecord.of` written."""
    return LogRecord.of(setup, events, meta, colours=colours).to_dict()


def log_dumps(log: Mapping[str, Any] | LogRecord) -> str:
    """A log's canonical JSON text: UTF-8 characters as themselves, no spaces, keys in the
    order they are in (:data:`LOG_KEYS` for a written log), no trailing newline."""
    if isinstance(log, LogRecord):
        log = log.to_dict()
    return json.dumps(log, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
