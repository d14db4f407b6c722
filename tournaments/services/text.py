"""Checks of the free text people type that ends up in a mail header or a one-line
place (league and player names): no line breaks or other control characters.

A league name is the subject of its invitation mails; a name with CR or LF would either
inject a header or make the mail fail to send, so it is refused where it is typed, with
the reason."""

from __future__ import annotations

import unicodedata

from tournaments.services.errors import coded


def control_characters(text: str) -> list[str]:
    """The control characters (line breaks included) in ``text``, as ``U+000A`` names."""
    return [
        f"U+{ord(ch):04X}"
        for ch in text
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") and ch != "\t"
    ]


def single_line(text: str, *, field: str, what: str) -> str:
    """``text`` stripped, or ServiceError naming the first control character in it.
    ``what`` names the text, in English words that the catalogue translates ("a league's
    name", "the player's name")."""
    text = (text or "").strip()
    bad = control_characters(text)
    if bad:
        raise coded("text_one_line", field=field, setting=what, found=bad[0])
    return text
