"""The notes services write on a record people read (a result's ``reason`` or
``decision_note``, a game's ``start_reason``), worded once here.

A note is stored as its English text — a reason a person typed is kept as typed — but
every note a service writes is one of the templates below (a fixed sentence, or one with
parameters: a list of names, the words a person gave), marked for translation. The stored
text is that template filled in, so it is its code and parameters in an encoded form:
``reason_text`` recognises the template, takes the parameters back out and words the note
in the reader's language (a page's ``note`` filter, a mail), and leaves a person's own
words alone. Rows written before a note was listed here keep showing their English.
"""

from __future__ import annotations

import re
from functools import cache

from django.utils.translation import gettext, gettext_noop, pgettext

#: a league game's player never came to its online room (``live.services.fixture_no_show``)
NO_SHOW = gettext_noop("did not come to the online game")
#: a forfeit recorded without a reason (``tournaments.services.results.forfeit_record``)
FORFEIT = gettext_noop("forfeit")
#: a tie on count points decided by a die roll (``tournaments.services.tie_breaks``)
TIE_ROLL = gettext_noop("die roll recorded for the tie on count points")
#: two players at a championship table entered different placings (``order``: the other
#: player's placings, by name; ``tournaments.services.championship``)
DISAGREEMENT = gettext_noop("another player at the table entered different placings: %(order)s")
#: a game's start decided by die rolls (``tournaments.services.events``, ``schedule``)
START_BY_DICE = gettext_noop("highest die roll of the colours in play")
START_AT_TABLE = gettext_noop("highest die roll of the colours in play (rolled at the table)")
#: a game's start set by an organizer (``reason``: their words, kept as typed)
START_BY_HAND = gettext_noop("set by the organizer: %(reason)s")

#: a league game played online where players left (``live.services.finish``): ``gone`` is
#: one ``LEFT_BOARD`` per player who left, joined with "; "
PLAYED_ONLINE = gettext_noop("played online; %(gone)s")
#: ``colours``: the player's colours (English names, joined with ", "); ``since``: a roll
LEFT_BOARD = gettext_noop(
    "%(name)s left the board: the computer played %(colours)s from roll %(since)s on"
)

#: every note a service writes
NOTES = (
    NO_SHOW,
    FORFEIT,
    TIE_ROLL,
    DISAGREEMENT,
    START_BY_DICE,
    START_AT_TABLE,
    START_BY_HAND,
    PLAYED_ONLINE,
    LEFT_BOARD,
)
#: kept for the callers that ask whether a text is a fixed note
SERVICE_REASONS = frozenset(n for n in NOTES if "%(" not in n)

_PARAM = re.compile(r"%\\\((\w+)\\\)s")


def _pattern(template: str) -> re.Pattern:
    """A template as a pattern that matches its filled-in text (each parameter a group)."""
    return re.compile(_PARAM.sub(r"(?P<\1>.*)", re.escape(template)), re.DOTALL)


@cache
def _patterns(notes: tuple[str, ...]) -> tuple[tuple[str, re.Pattern], ...]:
    return tuple((template, _pattern(template)) for template in notes)


def note(template: str, **params) -> str:
    """The text stored for a note: one of ``NOTES`` filled in, in English."""
    return template % params


def reason_text(text: str, notes: tuple[str, ...] = NOTES) -> str:
    """``text`` in the active language if a service wrote it (one of ``notes``, with its
    parameters as stored), else as a person wrote it. ``notes``: a caller above ``core``
    adds its own (a game's start reasons: ``tournaments.algorithms.starting_colour``)."""
    for template, pattern in _patterns(notes):
        if found := pattern.fullmatch(text or ""):
            return _worded(template, found.groupdict(), text)
    return text


def _notes(value: str) -> str:
    return "; ".join(reason_text(part) for part in value.split("; "))


def _colours(value: str) -> str:
    return ", ".join(pgettext("colour", name) for name in value.split(", "))


#: parameters that are worded too: notes inside a note, colour names
_WORDED_PARAMS = {"gone": _notes, "colours": _colours}


def _worded(template: str, params: dict, text: str) -> str:
    shown = {k: _WORDED_PARAMS.get(k, str)(v) for k, v in params.items()}
    try:
        return gettext(template) % shown
    except (KeyError, TypeError, ValueError):  # a translation missing a parameter
        return text
