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
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.crypto import salted_hmac

from tournaments.algorithms.championship import RoundClock, clock_left, team_ranking
from tournaments.algorithms.errors import AlgorithmError
from tournaments.models import Entry, Fixture, League, OpenRound
from tournaments.selectors import open_tournaments as open_reads
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
    return desk_entries(league).select_related("player").filter(pk=pk).first()


def desk_entries(league: League):
    """Whom the desk checks in: the playing entries and the waitlist (h-champ)."""
    return league.entries.filter(
        state__in=[Entry.State.ACCEPTED, Entry.State.WAITLISTED], withdrawn_at__isnull=True
    )


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
    #: h-champ: the waitlist in order, the capacity
    waiting: list[Entry] = ()
    capacity: int | None = None
    #: the initial letters the desk's list is filed under, and the one shown
    letters: tuple[str, ...] = ()
    letter: str = ""


def initial(name: str) -> str:
    """The letter a name is filed under on the desk's list: its first letter, upper case,
    without accents ("Ärger" under A); "#" for a name that does not start with a letter."""
    first = unicodedata.normalize("NFKD", name.strip()[:1])[:1].upper()
    return first if first.isalpha() else "#"


def _waitlist_in_order(listed: list[Entry]) -> list[Entry]:
    """The waiting entries in waitlist order, each with its ``waitlist_place``."""
    waiting = sorted(
        (e for e in listed if e.state == Entry.State.WAITLISTED),
        key=lambda e: (e.waitlisted_at, e.pk),
    )
    for place, e in enumerate(waiting, 1):
        e.waitlist_place = place
    return waiting


def _row_filter(entries, query: str, exact, letter: str):
    """Which rows the desk sees: the exact code's entry, else the names matching the text,
    else the names under ``letter``; None: everybody."""
    if exact is not None:
        return lambda e: e.pk == exact.pk
    if query:
        found = set(entries.filter(Q(player__name__icontains=query)).values_list("pk", flat=True))
        return lambda e: e.pk in found
    if letter:
        return lambda e: initial(e.player.name) == letter
    return None


def _field_counts(listed: list[Entry]) -> dict[str, int]:
    """How many play (the waitlist aside), are checked in and have paid."""
    everyone = [e for e in listed if e.state != Entry.State.WAITLISTED]
    return {
        "total": len(everyone),
        "checked_in": sum(e.checked_in_at is not None for e in everyone),
        "paid": sum(e.paid_at is not None for e in everyone),
    }


def checkin_list(league: League, query: str = "", letter: str = "") -> CheckinList:
    """The playing entries for the desk's check-in page: an exact check-in code finds that
    one entry; other text filters by name; else ``letter`` (an initial) filters; counts
    over the whole field. Three queries."""
    entries = desk_entries(league).select_related("player").order_by("player__name", "pk")
    query = (query or "").strip()
    exact = entry_for_code(league, query) if query else None
    listed = list(entries)
    letters = tuple(sorted({initial(e.player.name) for e in listed}))
    letter = letter if letter in letters else ""
    keep = _row_filter(entries, query, exact, letter)
    return CheckinList(
        waiting=_waitlist_in_order(listed),
        capacity=league.capacity,
        entries=listed if keep is None else [e for e in listed if keep(e)],
        exact=exact,
        letters=letters,
        letter=letter,
        **_field_counts(listed),
    )


def current_round(league: League) -> int | None:
    """The newest drawn round's number (the final table counts as a round), or None."""
    last = league.fixtures.order_by("-round").values_list("round", flat=True).first()
    return last


def table_for_post(pk: int) -> Fixture:
    """A table as a phone's post needs it (raises ``DoesNotExist``): its league and seats
    with their players, two queries; the service reads the result versions under the
    table's lock."""
    return Fixture.objects.select_related("league").prefetch_related(seats_prefetch()).get(pk=pk)


def round_tables(league: League, number: int) -> list[Fixture]:
    """The tables of round ``number``, by table number, seats and players loaded."""
    return list(
        league.fixtures.filter(round=number)
        .prefetch_related(seats_prefetch(), "results")
        .order_by("number", "pk")
    )


#: a table's state on the desk and the table's page, most urgent first
TABLE_STATES = ("referee", "disputed", "entered", "playing", "confirmed")


def table_state(fixture: Fixture) -> str:
    """``referee`` (called and not cleared), ``disputed``, ``confirmed`` (counts; a forfeit
    too), ``entered`` (waiting for another player or the desk) or ``playing``."""
    if fixture.referee_called_at is not None:
        return "referee"
    status = fixture.status
    if status == Fixture.Status.DISPUTED:
        return "disputed"
    if status in Fixture.CLOSED_STATUSES:
        return "confirmed"
    if status == Fixture.Status.SUBMITTED:
        return "entered"
    return "playing"


def open_result(fixture: Fixture):
    """The table's newest open or counting result, or None: from the versions
    ``games.fixture_get`` prefetched (``all_results``) when there, else ``results``."""
    wanted = ("pending", "disputed", "confirmed")
    versions = getattr(fixture, "all_results", None)
    if versions is None:
        versions = fixture.results.all()
    results = [r for r in versions if r.state in wanted]
    return max(results, key=lambda r: r.pk) if results else None


def _one_value(queryset, **aggregate):
    """A correlated subquery of one aggregate over ``queryset`` (per league)."""
    ((name, expression),) = aggregate.items()
    grouped = queryset.filter(league=OuterRef("pk")).order_by().values("league")
    return Subquery(grouped.annotate(**{name: expression}).values(name)[:1])


def projector_version(league: League) -> str:
    """A short fingerprint of everything the projector shows (one query): the tables and
    their results (fixtures' count and newest change), the results revision, the round
    clock's last change and the league's check-in; the ETag of the projector's fragment."""

    row = (
        League.objects.filter(pk=league.pk)
        .annotate(
            n=_one_value(Fixture.objects, n=Count("pk")),
            changed=_one_value(Fixture.objects, changed=Max("updated_at")),
            clock=_one_value(OpenRound.objects, clock=Max("clock_changed_at")),
        )
        .values("n", "changed", "clock", "results_revision")
        .get()
    )
    stamps = [row[k].timestamp() if row[k] else 0 for k in ("changed", "clock")]
    return (
        f'"p{league.pk}-{row["n"] or 0}-{stamps[0]:.6f}-{stamps[1]:.3f}-{row["results_revision"]}"'
    )


@dataclass(frozen=True)
class ClockView:
    """A round's clock as a page shows it: ``state`` (running, paused, idle; ``none`` when
    the event has no time limit or no round is drawn), when it ends (running), and the
    whole seconds left now (running or paused)."""

    state: str
    ends_at: datetime | None = None
    left: int | None = None
    minutes: int | None = None


def _clock_view(record: OpenRound | None, minutes: int | None, now=None) -> ClockView:
    if record is None or not minutes:
        return ClockView("none")
    clock = RoundClock(ends_at=record.clock_ends_at, left_seconds=record.clock_left_seconds)
    left = clock_left(clock, now or timezone.now())
    return ClockView(clock.state, clock.ends_at, left, minutes)


def round_clock(league: League, number: int | None = None, now=None) -> ClockView:
    """The clock of round ``number`` (else the newest round), one query."""
    rounds = league.open_rounds.order_by("-number")
    record = (rounds.filter(number=number) if number else rounds).first()
    return _clock_view(record, league.time_limit_minutes, now)


@dataclass(frozen=True)
class Projector:
    round: int | None
    is_final: bool
    #: (name, table number, colours) alphabetically by name
    seating: list[tuple[str, int, list[str]]]
    #: the round's clock (started, paused and resumed at the desk)
    clock: ClockView
    #: (rank, name, placement points, games played), best first
    standings: list[tuple[int, str, object, object]]


def _seating(league: League, number: int) -> tuple[list[tuple[str, int, list[str]]], bool]:
    """Everyone seated in round ``number`` as (name, table, colours), by name; and whether
    it is the final table."""
    seating, is_final = [], False
    for fixture in round_tables(league, number):
        is_final = is_final or fixture.stage == Fixture.Stage.FINAL
        seating += [
            (s.entry.player.name, fixture.number, list(s.colours)) for s in fixture.seats.all()
        ]
    seating.sort(key=lambda row: (row[0].casefold(), row[1]))
    return seating, is_final


def _preliminary_rows(league: League) -> list:
    try:
        return open_reads.preliminary_rows(league)
    except AlgorithmError:
        return []


def projector(league: League, *, standings_rows: int = 20) -> Projector:
    """What the projector shows: the newest round's seating, its clock and the
    preliminary standings (top ``standings_rows``)."""

    number = current_round(league)
    seating, is_final = _seating(league, number) if number is not None else ([], False)
    names = dict(league.entries.values_list("pk", "player__name"))
    standings = [
        (
            r.rank,
            names.get(r.entry, "?"),
            r.values.get("placement_points"),
            r.values.get("games_played"),
        )
        for r in _preliminary_rows(league)[:standings_rows]
    ]
    return Projector(
        round=number,
        is_final=is_final,
        seating=seating,
        clock=round_clock(league, number) if number is not None else ClockView("none"),
        standings=standings,
    )


# --- h-champ: the team classification and the categories ----------------------------------


@dataclass(frozen=True)
class ClassRow:
    rank: int  # in the whole field
    place: int  # within the shown category (the rank when none is chosen)
    entry: Entry
    points: object
    games: object


@dataclass(frozen=True)
class Classification:
    #: the preliminary standings, filtered by ``category`` when one is chosen
    rows: list[ClassRow]
    #: the team classification (``algorithms.championship.team_ranking``): each row with
    #: its counted members as (name, points)
    teams: list
    categories: list[str]
    category: str
    team_best: int
    #: ranked by the final table (its four first), not by the preliminary points
    final: bool = False
    with_teams: bool = False


def _in_final_order(standings: list, final_order: list[int]) -> list:
    """The final table's order on top (places 1, 2, …), everybody else after, in order."""
    by_entry = {r.entry: r for r in standings}
    finalists = set(final_order)
    ordered = [by_entry[e] for e in final_order if e in by_entry]
    ordered += [r for r in standings if r.entry not in finalists]
    return [type(r)(r.entry, i, r.values, r.separated_by, False) for i, r in enumerate(ordered, 1)]


def _category_rows(standings: list, entries: dict, category: str) -> list[ClassRow]:
    """The standings' rows of ``category`` (all when empty): the overall rank kept, the
    place within the category beside it (equal ranks share it)."""
    rows: list[ClassRow] = []
    for r in standings:
        entry = entries.get(r.entry)
        if entry is None or (category and entry.category != category):
            continue
        place = rows[-1].place if rows and rows[-1].rank == r.rank else len(rows) + 1
        points, games = r.values.get("placement_points"), r.values.get("games_played")
        rows.append(ClassRow(r.rank, place, entry, points, games))
    return rows


def _teams(standings: list, entries: dict, best: int) -> list:
    """The team classification, each team with its counted members as (name, points)."""
    points = {r.entry: r.values.get("placement_points") or 0 for r in standings}
    teams = team_ranking(points, {pk: e.team for pk, e in entries.items()}, best)
    return [(t, [(entries[e].player.name, p) for e, p in t.counted]) for t in teams]


def classification(
    league: League, category: str = "", final_order: list[int] | None = None
) -> Classification:
    """The event's standings as the projector and the classification page show them, with
    a category as a filter of the same table (the overall rank kept, the place within the
    category beside it), and the team classification by the event's rule (the best
    ``team_best`` members' placement points, all when 0). Three queries."""

    standings = _preliminary_rows(league)
    entries = {e.pk: e for e in league.entries.select_related("player")}
    categories = sorted({e.category for e in entries.values() if e.category}, key=str.casefold)
    category = category if category in categories else ""
    if final_order:  # the final table has counted: its order on top, the others after
        standings = _in_final_order(standings, final_order)
    return Classification(
        final=bool(final_order),
        with_teams=any(e.team for e in entries.values()),
        rows=_category_rows(standings, entries, category),
        teams=_teams(standings, entries, league.team_best or 0),
        categories=categories,
        category=category,
        team_best=league.team_best or 0,
    )


# --- h-champ: a series with qualifiers ----------------------------------------------------


def qualifiers_of(final: League) -> list[Entry]:
    """The final event's entries carried over from a regional event (withdrawn ones aside),
    by region (in the order of their creation) and place there; ``qualified_from`` loaded."""
    return list(
        final.entries.filter(qualified_from__isnull=False, withdrawn_at__isnull=True)
        .select_related("player", "qualified_from")
        .order_by("qualified_from__created_at", "qualified_from__pk", "qualified_place", "pk")
    )


def series_regions(final: League) -> list[League]:
    """The regional events that qualify players for ``final``, in the order of creation."""
    return list(final.qualifier_events.order_by("created_at", "pk"))


def finals_to_choose(user, league: League) -> list[League]:
    """The open tournaments ``user`` organizes that ``league`` may qualify players for."""
    organized = Q(owner=user) | Q(organizers=user)
    return list(
        League.objects.filter(organized, event_kind=League.EventKind.OPEN)
        .exclude(pk=league.pk)
        .distinct()
        .order_by("name")
    )
