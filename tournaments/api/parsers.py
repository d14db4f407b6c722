"""Parsers for game-log uploads: the log must reach the service byte for byte as sent (it
is stored unchanged and identified by its SHA-256), so a JSON body is not parsed here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import exceptions, parsers, status

from games.engine.log import size_text
from games.services import MAX_LOG_BYTES

#: Room for the multipart envelope around a log file.
MULTIPART_OVERHEAD = 64 * 1024


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = (
        f"the log is larger than the limit of {size_text(MAX_LOG_BYTES)}; "
        "upload only the game's maedn-log/1 JSON"
    )


@dataclass(frozen=True)
class RawLog:
    """An uploaded log body, unparsed."""

    content: bytes


class RawJSONLogParser(parsers.BaseParser):
    """``application/json``: the body is the log itself, kept as bytes."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None) -> RawLog:
        content = stream.read(MAX_LOG_BYTES + 1)
        if len(content) > MAX_LOG_BYTES:
            raise PayloadTooLarge()
        return RawLog(content)


def _bad_character(text: str) -> str | None:
    if "\x00" in text:
        return "a NUL character (\\u0000)"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "an unpaired surrogate (\\ud800–\\udfff)"
    return None


def _path(link) -> str:
    parts: list[str] = []
    while link is not None:
        step, link = link
        parts.append(step)
    return "".join(reversed(parts)).lstrip(".") or "the document"


def find_unstorable(value: Any) -> str | None:
    """Describe the first string (key or value) in parsed JSON that PostgreSQL cannot store
    as text — one with a NUL character or an unpaired surrogate — or None. Iterative, so
    that deeply nested input cannot exhaust the stack."""
    stack: list[tuple[Any, Any]] = [(value, None)]
    while stack:
        item, link = stack.pop()
        if isinstance(item, str):
            if problem := _bad_character(item):
                return f"{_path(link)} contains {problem}"
        elif isinstance(item, dict):
            for key, child in item.items():
                if problem := _bad_character(key):
                    return f"a key in {_path(link)} contains {problem}"
                stack.append((child, (f".{key}", link)))
        elif isinstance(item, list):
            stack.extend((child, (f"[{i}]", link)) for i, child in enumerate(item))
    return None


def refuse_unstorable(value: Any, what: str = "the request") -> None:
    if problem := find_unstorable(value):
        raise exceptions.ParseError(f"{what} cannot be stored: {problem}")


def check_declared_size(request) -> None:
    """Refuse an oversized upload from its Content-Length, before reading it."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return
    if declared > MAX_LOG_BYTES + MULTIPART_OVERHEAD:
        raise PayloadTooLarge()
