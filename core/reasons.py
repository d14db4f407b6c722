"""The reasons services write on a record people read (a result's ``reason``), as codes.

A reason is stored as its English text — the page and the API show it as stored, and a
reason a person typed is kept as typed — but the reasons a service writes are marked for
translation here, once, so a mail (``notifications.kinds``) words them in its reader's
language: ``reason_text`` translates exactly these and leaves a person's words alone.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

#: a league game's player never came to its online room (``live.services.fixture_no_show``)
NO_SHOW = gettext_noop("did not come to the online game")
#: a forfeit recorded without a reason (``tournaments.services.results.forfeit_record``)
FORFEIT = gettext_noop("forfeit")
#: a tie on count points decided by a die roll (``tournaments.services.tie_breaks``)
TIE_ROLL = gettext_noop("die roll recorded for the tie on count points")

SERVICE_REASONS = frozenset({NO_SHOW, FORFEIT, TIE_ROLL})


def reason_text(text: str) -> str:
    """``text`` in the active language if a service wrote it, else as a person wrote it."""
    return gettext(text) if text in SERVICE_REASONS else text
