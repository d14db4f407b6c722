"""Validating and storing game logs. ``games`` knows logs and replays, not leagues."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games import engine
from games.engine.log import MAX_LOG_BYTES, size_text
from games.models import GameLog
from games.stats import stored_columns
from games.storable import NUL_CHARACTER, find_unstorable


class LogRejected(Exception):
    """The engine (or the format) refused a log. ``event`` is the first offending event's
    0-based index, or None when the log as a whole is malformed."""

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.event = event


@dataclass(frozen=True)
class CheckedLog:
    """A log the engine accepted: its exact text, hash, parsed JSON and the verdict."""

    text: str
    sha256: str
    data: dict[str, Any]
    verdict: dict[str, Any]

    @property
    def game_time(self) -> float | None:
        times = [
            e["t"]
            for e in self.data.get("events", [])
            if isinstance(e, dict)
            and isinstance(e.get("t"), int | float)
            and not isinstance(e.get("t"), bool)
        ]
        return float(max(times)) if times else None


def log_text(content: str | bytes) -> str:
    """The upload as text: UTF-8 (a BOM is tolerated), within the size limit."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    if len(raw) > MAX_LOG_BYTES:
        raise LogRejected(f"the log is {len(raw):,} bytes; the limit is {size_text(MAX_LOG_BYTES)}")
    if not raw.strip():
        raise LogRejected("the upload is empty: paste or upload a maedn-log/1 JSON file")
    try:
        return raw.decode("utf-8-sig") if isinstance(content, bytes) else content
    except UnicodeDecodeError as exc:
        raise LogRejected(f"the log is not UTF-8 text (byte {exc.start} is invalid)") from None


def _require_storable(data: Any) -> None:
    """No name or value may contain NUL or an unpaired surrogate (``games.storable``): a
    database cannot store them, and no real log needs them."""
    found = find_unstorable(data)
    if found is None:
        return
    if found.problem == NUL_CHARACTER:
        raise LogRejected("the log contains a NUL character (\\u0000), which no value may hold")
    raise LogRejected(
        "the log contains an unpaired surrogate escape (\\ud800–\\udfff), which is not valid text"
    )


def game_log_check(content: str | bytes, *, storing: bool = True) -> CheckedLog:
    """Validate a log with the engine. Raises ``LogRejected`` with the engine's message.
    ``storing`` off (the replay page, which stores nothing) skips the check that the
    database can hold every value (a second pass over the whole log)."""
    text = log_text(content)
    # the engine reads the text itself: NaN/Infinity, huge integers and the limits are its
    data, verdict = engine.validate_parsed(text)
    if data is None:
        raise LogRejected(verdict["error"])
    if storing:
        _require_storable(data)
    if not verdict.get("valid"):
        raise LogRejected(verdict.get("error", "the log is invalid"), verdict.get("event"))
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return CheckedLog(text=text, sha256=sha, data=data, verdict=verdict)


def game_log_fields(checked: CheckedLog) -> dict:
    """The columns of the ``GameLog`` row of an accepted log: its text and hash, what its
    header and verdict say, and the per-seat columns read from its replay (``seat_faces``,
    ``seat_stats``). One definition for the upload and for bulk builders (bench/scale.py)."""
    v, data = checked.verdict, checked.data
    return {
        "sha256": checked.sha256,
        "content": checked.text,
        "size": len(checked.text.encode("utf-8")),
        "board": data.get("board", 4),
        "rules": data["rules"],
        "players": data.get("players") or {},
        "first": data["first"],
        "complete": bool(v.get("complete")),
        "events": v.get("events", 0),
        "placings": v.get("placings") or [],
        "winner": v.get("winner") or "",
        "pawns_home": v.get("pawns_home") or {},
        "captures": v.get("captures") or {},
        **stored_columns(checked.data),  # parsed once, by the validation
        "game_time": checked.game_time,
    }


def game_log_store(checked: CheckedLog, *, by=None) -> tuple[GameLog, bool]:
    """Store an accepted log, or find the identical one stored before (same SHA-256).
    Returns ``(log, created)``. Call inside the caller's transaction."""
    existing = GameLog.objects.filter(sha256=checked.sha256).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            log = GameLog.objects.create(
                **game_log_fields(checked),
                uploaded_by=by if getattr(by, "is_authenticated", False) else None,
            )
    except IntegrityError:  # the same log stored concurrently
        return GameLog.objects.get(sha256=checked.sha256), False
    return log, True
