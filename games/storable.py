"""The one storable-text check: text PostgreSQL can hold.

PostgreSQL text (and JSON stored as text) cannot hold a NUL character, and no UTF-8 text
holds an unpaired surrogate (``\\ud800``–``\\udfff``, which a JSON text may spell as an
escape). A bad log or request may carry either; every layer that refuses or stores such
text asks here: the upload service (``games.services``), the API's request parsing and
query parameters (``tournaments/api``), a refusal recorded with its message
(``tournaments/services/results.py``) and the API's error messages.

In ``games`` (the lowest layer that stores anything), so every layer above can use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

NUL_CHARACTER = "a NUL character (\\u0000)"
UNPAIRED_SURROGATE = "an unpaired surrogate (\\ud800–\\udfff)"


def unstorable(text: str) -> str | None:
    """What in ``text`` cannot be stored — :data:`NUL_CHARACTER` or
    :data:`UNPAIRED_SURROGATE` — or None."""
    if "\x00" in text:
        return NUL_CHARACTER
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return UNPAIRED_SURROGATE
    return None


def storable(text: str) -> str:
    """``text`` with what cannot be stored escaped (NUL as ``\\x00``, a surrogate as
    ``\\udxxx``): a message echoing bad input can still be stored or sent."""
    if unstorable(text) is None:
        return text
    return text.replace("\x00", "\\x00").encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True)
class Unstorable:
    """Where in parsed JSON a string cannot be stored (``path``: ``events[3].colour``,
    ``the document``) and what it holds (``problem``); reads as a sentence."""

    path: str
    problem: str
    key: bool = False

    def __str__(self) -> str:
        where = f"a key in {self.path}" if self.key else self.path
        return f"{where} contains {self.problem}"


def _path(link: Any) -> str:
    parts: list[str] = []
    while link is not None:
        step, link = link
        parts.append(step)
    return "".join(reversed(parts)).lstrip(".") or "the document"


def _storable_as_json(value: Any) -> bool:
    """The C-level check: the JSON text of ``value`` has no ``\\u0000`` and encodes."""
    try:
        dumped = json.dumps(value, ensure_ascii=False)
        if "\\u0000" not in dumped:
            dumped.encode("utf-8")
            return True
    except (TypeError, ValueError, RecursionError):
        pass
    return False


def find_unstorable(value: Any) -> Unstorable | None:
    """The first string (key or value) in parsed JSON that cannot be stored, or None.

    One C-level pass first (the JSON text of ``value``: no ``\\u0000`` and encodable means
    every string is storable); only a value that fails it is walked — iteratively, so
    deeply nested input cannot exhaust the stack — to name the place."""
    if _storable_as_json(value):
        return None
    stack: list[tuple[Any, Any]] = [(value, None)]
    while stack:
        item, link = stack.pop()
        if isinstance(item, str):
            if problem := unstorable(item):
                return Unstorable(_path(link), problem)
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and (problem := unstorable(key)):
                    return Unstorable(_path(link), problem, key=True)
                stack.append((child, (f".{key}", link)))
        elif isinstance(item, (list, tuple)):
            stack.extend((child, (f"[{i}]", link)) for i, child in enumerate(item))
    return None
