"""Small helpers for error messages that must never fail, whatever the input."""

from __future__ import annotations


def describe(value: object, limit: int = 60) -> str:
    """A short, safe rendering of any (JSON-like) value for an error message.

    Containers are named, not printed (they may be huge or deeply nested);
    huge ints are not converted to text (that can raise in Python ≥ 3.11).
    """
    if value is True or value is False or value is None:
        return _CONSTANTS[value]
    if isinstance(value, int):
        return str(value) if -(10**30) < value < 10**30 else "a huge number"
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, str):
        return '"' + safe_text(value, limit) + '"'
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an empty list" if not value else f"a list of {len(value)}"
    return f"a {type(value).__name__}"


_CONSTANTS = {True: "true", False: "false", None: "null"}


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def safe_text(text: str, limit: int = 60) -> str:
    """``text`` shortened to ``limit`` characters, control characters escaped."""
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return "".join(_safe(ch) for ch in text)


def _safe(ch: str) -> str:
    """Control characters and lone surrogates escaped (they can't be stored or printed)."""
    code = ord(ch)
    if ch.isprintable() and not 0xD800 <= code <= 0xDFFF:
        return ch
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
