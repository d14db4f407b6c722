"""The notes services write on a record people read (a result's ``reason`` or
``decision_note``, a game's ``start_reason``), worded once here.

A note is stored as its English text — a reason a person typed is kept as typed — but
every note a service writes is one of the templates below (a fixed sentence, or one with
parameters: a list of names, the words a person gave), marked for translation. The stored
text is that template filled in, so it is its code and parameters in an encoded form:
``reason_text`` recognises the template, takes the parameters back out and words the note
in the reader's language (a page's ``note`` filter, a mail), and leaves a person's own
words alone. Rows written before a note was listed here keep showing their English.
Each template has a code (``CODES``): ``note_parts`` gives a stored note's code and
parameters (the API shows them beside the worded note; a person's words have none).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from django.utils.translation import gettext, gettext_noop, pgettext

#: a league game's player never came to its online room (``live.services.fixture_no_show``)
NO_SHOW = gettext_noop("did not come to the online game")
#: a forfeit recorded without a reason (``tournaments.services.results.forfeit_record``)
FORFEIT = gettext_noop("forfeit")
#: a player withdrew and no reason was given: their open games' forfeits
#: (``tournaments.services.leagues.entry_withdraw``)
WITHDREW = gettext_noop("withdrew")
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

#: a live room's ``result_note`` (``live.services.finish``): what became of a league game
#: played online. ``result``: the result's id; ``note``: the result's own note (one of these
#: notes); ``message``: the refusal's or the check's words, as they were given
ROOM_EVERYONE_LEFT = gettext_noop(
    "no result: every player left the board, so the computer's play does not count for "
    "them; the league's organizers may record a forfeit"
)
ROOM_ALL_GONE = gettext_noop("no result: every player had left the board")
ROOM_COUNTED_WITH_NOTE = gettext_noop("counted as result %(result)s (%(note)s)")
ROOM_COUNTED = gettext_noop("counted as result %(result)s")
ROOM_NOT_VALID_AFTER = gettext_noop("%(note)s; the log did not validate: %(message)s")
ROOM_NOT_VALID = gettext_noop("the log did not validate: %(message)s")
ROOM_REFUSED = gettext_noop("the results service refused the log: %(message)s")
ROOM_FORFEIT = gettext_noop("recorded as forfeit %(result)s")

#: every note a service writes, by its code (the API's ``…_code``; a code never changes
#: once rows carry its note). Tried in this order: a note whose text may hold another's
#: comes first (``ROOM_NOT_VALID_AFTER`` before ``ROOM_REFUSED``, whose words it may hold)
CODES: dict[str, str] = {
    "no_show": NO_SHOW,
    "forfeit": FORFEIT,
    "withdrew": WITHDREW,
    "tie_roll": TIE_ROLL,
    "disagreement": DISAGREEMENT,
    "start_by_dice": START_BY_DICE,
    "start_at_table": START_AT_TABLE,
    "start_by_hand": START_BY_HAND,
    "played_online": PLAYED_ONLINE,
    "left_board": LEFT_BOARD,
    "room_everyone_left": ROOM_EVERYONE_LEFT,
    "room_all_gone": ROOM_ALL_GONE,
    "room_not_valid_after": ROOM_NOT_VALID_AFTER,
    "room_not_valid": ROOM_NOT_VALID,
    "room_counted_with_note": ROOM_COUNTED_WITH_NOTE,
    "room_counted": ROOM_COUNTED,
    "room_refused": ROOM_REFUSED,
    "room_forfeit": ROOM_FORFEIT,
}
#: every note a service writes
NOTES = tuple(CODES.values())
#: kept for the callers that ask whether a text is a fixed note
SERVICE_REASONS = frozenset(n for n in NOTES if "%(" not in n)

_PARAM = re.compile(r"%\\\((\w+)\\\)s")


#: parameters that are whole numbers (a result's id, a roll, a game's number): matched as
#: digits only, so "counted as result 12 (…)" is not read as ``ROOM_COUNTED`` of "12 (…)"
NUMBER_PARAMS = frozenset({"result", "since", "game"})


def _group(found: re.Match) -> str:
    name = found[1]
    return f"(?P<{name}>{'[0-9]+' if name in NUMBER_PARAMS else '.*'})"


def _pattern(template: str) -> re.Pattern:
    """A template as a pattern that matches its filled-in text (each parameter a group)."""
    return re.compile(_PARAM.sub(_group, re.escape(template)), re.DOTALL)


@cache
def _patterns(notes: tuple[str, ...]) -> tuple[tuple[str, re.Pattern], ...]:
    return tuple((template, _pattern(template)) for template in notes)


def note(template: str, **params) -> str:
    """The text stored for a note: one of ``NOTES`` filled in, in English."""
    return template % params


def _found(text: str, notes: tuple[str, ...]) -> tuple[str, dict[str, str]] | None:
    """The template ``text`` was filled in from, with its parameters, or None."""
    if not (hit := _match(text, notes)):
        return None
    template, params = hit
    return template, dict(params)


@lru_cache(maxsize=4096)
def _match(text: str, notes: tuple[str, ...]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """``_found``'s work, kept for the texts seen last: a list of results words each note
    three times (the API's ``reason``, ``reason_code``, ``reason_params``) and a page shows
    the same notes again and again, so each distinct note is matched against every
    template once (immutable values: a caller cannot change what another one gets)."""
    if not text:
        return None
    for template, pattern in _patterns(notes):
        if found := pattern.fullmatch(text):
            return template, tuple(found.groupdict().items())
    return None


def reason_text(text: str, notes: tuple[str, ...] = NOTES) -> str:
    """``text`` in the active language if a service wrote it (one of ``notes``, with its
    parameters as stored), else as a person wrote it. ``notes``: a caller above ``core``
    adds its own (a game's start reasons: ``tournaments.algorithms.starting_colour``)."""
    if hit := _found(text, notes):
        return _worded(*hit, text)
    return text


@cache
def _code_of(codes: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {template: code for code, template in codes}


def note_parts(text: str, codes: dict[str, str] = CODES) -> tuple[str | None, dict | None]:
    """A stored note's code and parameters (``codes``: code → template, as ``CODES``), or
    ``(None, None)`` for a person's own words (and an empty note). The parameters are the
    stored strings; one that holds notes (``gone``, ``note``) is given as those notes' own
    ``{"code", "params"}`` (a list for ``gone``)."""
    if not (hit := _found(text, tuple(codes.values()))):
        return None, None
    template, params = hit
    code = _code_of(tuple(codes.items()))[template]
    return code, {k: _PARAM_PARTS.get(k, str)(v) for k, v in params.items()}


def _note_object(text: str) -> dict | str:
    """A note inside a note as ``{"code", "params"}`` (a person's words: the text)."""
    code, params = note_parts(text)
    return {"code": code, "params": params} if code else text


_PARAM_PARTS = {
    "gone": lambda value: [_note_object(part) for part in value.split("; ")],
    "note": _note_object,
}


def _notes(value: str) -> str:
    return "; ".join(reason_text(part) for part in value.split("; "))


def _colours(value: str) -> str:
    return ", ".join(pgettext("colour", name) for name in value.split(", "))


#: parameters that are worded too: notes inside a note, colour names
_WORDED_PARAMS = {"gone": _notes, "note": reason_text, "colours": _colours}


def _worded(template: str, params: dict, text: str) -> str:
    shown = {k: _WORDED_PARAMS.get(k, str)(v) for k, v in params.items()}
    try:
        return gettext(template) % shown
    except (KeyError, TypeError, ValueError):  # a translation missing a parameter
        return text
