"""The stored notes of the site, by code: ``core.reasons``' and the games' start reasons
(``tournaments.algorithms.starting_colour``). A page's ``note`` filter and the API word a
stored note in the reader's language from here; the API gives its code and parameters too."""

from __future__ import annotations

from typing import Any

from core.reasons import CODES, note_parts, reason_text
from tournaments.algorithms.starting_colour import START_CODES

#: every stored note a service or an algorithm writes: code → template
SITE_CODES: dict[str, str] = {**CODES, **START_CODES}
SITE_NOTES = tuple(SITE_CODES.values())


def note_text(text: str) -> str:
    """A stored note in the active language (a person's own words as typed)."""
    return reason_text(text or "", SITE_NOTES)


def note_fields(name: str, text: str) -> dict[str, Any]:
    """A stored note as the API shows it: ``name`` in the request's language, ``name_code``
    and ``name_params`` (null for a person's own words and an empty note)."""
    code, params = note_parts(text or "", SITE_CODES)
    return {name: note_text(text), f"{name}_code": code, f"{name}_params": params}
