"""Parsers for game-log uploads: the log must reach the service byte for byte as sent (it
is stored unchanged and identified by its SHA-256), so a JSON body is not parsed here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import exceptions, parsers, status

from games.engine.log import size_text
from games.services import MAX_LOG_BYTES
from games.storable import find_unstorable

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


def refuse_unstorable(value: Any, what: str = "the request") -> None:
    """Refuse parsed JSON holding a string PostgreSQL cannot store (``games.storable``)."""
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
