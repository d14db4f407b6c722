"""Upload errors in the reader's language: the services and the engine word their messages
in English; the service-level wrapper and the engine's most common shapes are matched here
and translated with gettext. Anything else stays English (docs/pages.md lists what is)."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from games.replay import colour_label


def _shapes() -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]:
    return [
        (
            re.compile(r"^the log was rejected \(event (\d+)\): (.*)$", re.S),
            lambda m: (
                _("the log was rejected (event %(n)s): %(why)s")
                % {"n": m[1], "why": translate_error(m[2])}
            ),
        ),
        (
            re.compile(r"^this log does not belong to this game: (.*)$", re.S),
            lambda m: (
                _("this log does not belong to this game: %(why)s")
                % {"why": _translate_parts(m[1])}
            ),
        ),
        (
            re.compile(r"^the log starts with (\w+), but this game's starting colour is (\w+)$"),
            lambda m: (
                _("the log starts with %(first)s, but this game's starting colour is %(c)s")
                % {"first": _colour(m[1]), "c": _colour(m[2])}
            ),
        ),
        (
            re.compile(r"^the log is for board (\d), but (.+) plays on board (\d)$"),
            lambda m: (
                _("the log is for board %(log)s, but %(league)s plays on board %(board)s")
                % {"log": m[1], "league": m[2], "board": m[3]}
            ),
        ),
        (
            re.compile(
                r"^the log ends before the game is decided; upload the complete log of the game$"
            ),
            lambda m: _(
                "the log ends before the game is decided; upload the complete log of the game"
            ),
        ),
        (
            re.compile(
                r"^this log is already the result of game (.+) \(id (\d+)\); every game needs its own log$"  # noqa: E501
            ),
            lambda m: (
                _(
                    "this log is already the result of game %(game)s (id %(id)s); every game needs its own log"  # noqa: E501
                )
                % {"game": m[1], "id": m[2]}
            ),
        ),
        (
            re.compile(r"^the log is not valid JSON: (.*)$", re.S),
            lambda m: _("the log is not valid JSON: %(why)s") % {"why": m[1]},
        ),
        (
            re.compile(r"^it is (\w+)'s turn, not (\w+)'s$"),
            lambda m: (
                _("it is %(turn)s's turn, not %(name)s's")
                % {"turn": _colour(m[1]), "name": _colour(m[2])}
            ),
        ),
        (
            re.compile(r"^(\w+) rolled (\d+), which ended its turn; it is (\w+)'s turn$"),
            lambda m: (
                _("%(name)s rolled %(n)s, which ended its turn; it is %(turn)s's turn")
                % {"name": _colour(m[1]), "n": m[2], "turn": _colour(m[3])}
            ),
        ),
        (
            re.compile(r"^(\w+) rolled (\d+), but a die shows a whole number from 1 to 6$"),
            lambda m: (
                _("%(name)s rolled %(n)s, but a die shows a whole number from 1 to 6")
                % {"name": _colour(m[1]), "n": m[2]}
            ),
        ),
        (
            re.compile(r"^the game was already over(?:; (\w+) won)?, so no more rolls may follow$"),
            lambda m: (
                _("the game was already over; %(who)s won, so no more rolls may follow")
                % {"who": m[1]}
                if m[1]
                else _("the game was already over, so no more rolls may follow")
            ),
        ),
        (
            re.compile(r"^(\w+) rolled (\d+) and moved (\S+), but (.+)$", re.S),
            lambda m: (
                _("%(name)s rolled %(n)s and moved %(move)s, but %(why)s")
                % {"name": _colour(m[1]), "n": m[2], "move": m[3], "why": m[4]}
            ),
        ),
    ]


def _colour(name: str) -> str:
    return str(colour_label(name))


def _translate_parts(text: str) -> str:
    """The "; "-joined problems of a mismatch, each translated (a problem may itself
    contain "; ": the longest run of parts that is one known message wins)."""
    parts = text.split("; ")
    out, i = [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            candidate = "; ".join(parts[i:j])
            translated = translate_error(candidate)
            if translated != candidate or j == i + 1:
                out.append(translated)
                i = j
                break
    return "; ".join(out)


def translate_error(text: str) -> str:
    """``text`` in the active language where its shape is known, else unchanged."""
    if not text:
        return text
    for pattern, render in _shapes():
        if match := pattern.match(text):
            return render(match)
    return text
