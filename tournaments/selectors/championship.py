"""A championship day on an open tournament (issue 36), as reads: the players' check-in
codes and the venue's check-in token, the desk's check-in list, the tables of a round and
their states, and what the projector shows.

**Check-in codes.** A player's code is ``<entry id>-<4 characters>``: the characters are
an HMAC of the entry id under the site's SECRET_KEY, so a code cannot be guessed from
another one, is printed on a badge or a list and typed by a barcode scanner (which types
it and presses Enter); nothing is stored. **The venue token** (the QR code on the wall)
is an HMAC of the league and the moment check-in was opened: opening check-in again
makes a new one, and the old poster stops working."""

from __future__ import annotations

import base64
import hmac
import re
from dataclasses import dataclass

from django.db.models import Q
from django.utils.crypto import salted_hmac

from tournaments.models import Entry, Fixture, League
from tournaments.selectors.prefetch import seats_prefetch

CODE_RE = re.compile(r"^\s*(\d{1,10})-([A-Za-z2-7]{4})\s*$")


def _mac(salt: str, value: str, length: int) -> str:
    digest = salted_hmac(salt, value, algorithm="sha256").digest()
    return base64.b32encode(digest).decode("ascii")[:length]


def checkin_code(entry: Entry | int) -> str:
    """The entry's check-in code (``12-K7QF``): exact, not guessable, never stored."""
    pk = entry if isinstance(entry, int) else entry.pk
    return f"{pk}-{_mac('tournaments.checkin-code', str(pk), 4)}"


def entry_for_code(league: League, code: str) -> Entry | None:
    """The league's entry whose check-in code is ``code`` exactly (case aside), or None."""
    match = CODE_RE.match(code or "")
    if not match:
        return None
    pk = int(match.group(1))
    if not hmac.compare_digest(checkin_code(pk), f"{pk}-{match.group(2).upper()}"):
        return None
    return league.entries.playing().select_related("player").filter(pk=pk).first()


def venue_token(league: League) -> str | None:
    """The token of the venue's check-in QR code while check-in is open, else None."""
    if league.checkin_opened_at is None:
        return None
    value = f"{league.pk}:{league.checkin_opened_at.isoformat()}"
    return _mac("tournaments.checkin-venue", value, 20).lower()


def venue_token_valid(league: League, token: str) -> bool:
    wanted = venue_token(league)
    return wanted is not None and hmac.compare_digest(wanted, (token or "").lower())


@dataclass(frozen=True)
class CheckinList:
    entries: list[Entry]
    #: the entry whose code was typed (or scanned) exactly, if any
    exact: Entry | None
    total: int
    checked_in: int
    paid: int


def checkin_list(league: League, query: str = "") -> CheckinList:
    """The playing entries for the desk's check-in page: an exact check-in code finds that
    one entry; other text filters by name; counts over the whole field. Three queries."""
    entries = league.entries.playing().select_related("player").order_by("player__name", "pk")
    query = (query or "").strip()
    exact = entry_for_code(league, query) if query else None
    everyone = list(entries)
    if exact is not None:
        shown = [e for e in everyone if e.pk == exact.pk]
    elif query:
        shown = list(entries.filter(Q(player__name__icontains=query)))
    else:
        shown = everyone
    return CheckinList(
        entries=shown,
        exact=exact,
        total=len(everyone),
        checked_in=sum(1 for e in everyone if e.checked_in_at),
        paid=sum(1 for e in everyone if e.paid_at),
    )


def current_round(league: League) -> int | None:
    """The newest drawn round's number (the final table counts as a round), or None."""
    last = league.fixtures.order_by("-round").values_list("round", flat=True).first()
    return last


def round_tables(league: League, number: int) -> list[Fixture]:
    """The tables of round ``number``, by table number, seats and players loaded."""
    return list(
        league.fixtures.filter(round=number)
        .prefetch_related(seats_prefetch(), "results")
        .order_by("number", "pk")
    )
