"""A championship day's registration rules, as plain functions (no database): who moves up
from the waitlist, who loses their place at the check-in deadline, and the team
classification. The services (``tournaments.services.championship``) apply them under the
league's row lock; the rules are documented in docs/championship.md.

**The waitlist** *(platform rule; start.gg and Tabbycat work alike)*: an event with a
capacity takes entries up to it; later ones wait in the order they came. When a place
comes free (a withdrawal, a player removed at the check-in deadline) the first waiting
entries move up, in order. After the deadline only waiting players who are checked in (at
the venue) move up, still in order: an absent one would only leave the seat empty.

**The deadline**: whoever plays, has not checked in by it and has not played yet loses
their place (a player who has played a round is never removed by it).

**Teams** *(the event's rule)*: a team's points are the sum of its members' preliminary
points, of its best ``best`` members when ``best`` is set; teams are ranked by those
points, then by their best member's points; teams equal on both share the place."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

EntryId = Hashable


def require_whole(value, name: str, low: int) -> None:
    """``value`` must be a whole number (not a bool) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be a whole number ≥ {low}, got {value!r}")


@dataclass(frozen=True)
class Waiting:
    """An entry on the waitlist (in waitlist order) and whether it is checked in."""

    entry: EntryId
    present: bool = False


def free_places(capacity: int | None, playing: int) -> int | None:
    """How many more may play (None: no capacity, no limit)."""
    if capacity is None:
        return None
    return max(0, capacity - playing)


def promotions(
    capacity: int | None,
    playing: int,
    waiting: Sequence[Waiting],
    *,
    present_only: bool = False,
) -> tuple[EntryId, ...]:
    """The waiting entries that move up now, in waitlist order: the first ``free`` of those
    eligible (every waiting entry; after the deadline those present)."""
    eligible = [w.entry for w in waiting if w.present or not present_only]
    free = free_places(capacity, playing)
    return tuple(eligible if free is None else eligible[:free])


@dataclass(frozen=True)
class Registered:
    """A playing entry as the deadline sees it."""

    entry: EntryId
    checked_in: bool
    has_played: bool = False


def deadline_release(players: Iterable[Registered]) -> tuple[EntryId, ...]:
    """The playing entries that lose their place at the check-in deadline: not checked in
    and not seated at any table yet."""
    return tuple(p.entry for p in players if not p.checked_in and not p.has_played)


@dataclass(frozen=True)
class TeamRow:
    team: str
    rank: int
    points: int
    #: the members whose points count, best first: (entry, points)
    counted: tuple[tuple[EntryId, int], ...]
    members: int


def _team_members(
    points: Mapping[EntryId, int], teams: Mapping[EntryId, str]
) -> dict[str, list[tuple[EntryId, int]]]:
    """Each team's members with their points (entries without a team or points left out)."""
    members: dict[str, list[tuple[EntryId, int]]] = {}
    for entry, team in teams.items():
        if team and entry in points:
            members.setdefault(team, []).append((entry, points[entry]))
    return members


def _team_key(row) -> tuple[int, int]:
    """Teams order by points, then by their best counted member's points (descending)."""
    counted = row[2]
    return (-row[1], -(counted[0][1] if counted else 0))


def team_ranking(
    points: Mapping[EntryId, int], teams: Mapping[EntryId, str], best: int = 0
) -> tuple[TeamRow, ...]:
    """The team classification: every team with a member in ``points`` (entries without a
    team are left out), its points the sum of its best ``best`` members' (all when 0),
    ranked by points then best member; equal teams share the place, named in order."""
    require_whole(best, "best", 0)
    rows = []
    for team, group in _team_members(points, teams).items():
        group.sort(key=lambda m: -m[1])
        counted = tuple(group[:best] if best else group)
        rows.append((team, sum(p for _e, p in counted), counted, len(group)))
    rows.sort(key=lambda r: (*_team_key(r), r[0].casefold(), r[0]))
    ranked: list[TeamRow] = []
    for i, (team, total, counted, size) in enumerate(rows):
        tied = i and _team_key(rows[i - 1]) == _team_key(rows[i])
        ranked.append(TeamRow(team, ranked[-1].rank if tied else i + 1, total, counted, size))
    return tuple(ranked)


# --- the round clock (h-champ) ------------------------------------------------------------
#
# The desk starts a round's clock with the event's time limit, pauses it (a referee at a
# table, a break) and resumes it; every phone, the desk and the projector read the same
# stored state. A running clock is stored as the moment it reaches zero, a paused one as
# the seconds left, so nothing has to tick on the server.


@dataclass(frozen=True)
class RoundClock:
    """A round clock: running until ``ends_at``, paused with ``left_seconds`` left, or
    (neither) not started."""

    ends_at: datetime | None = None
    left_seconds: int | None = None

    @property
    def state(self) -> str:
        """``running``, ``paused`` or ``idle`` (not started)."""
        if self.ends_at is not None:
            return "running"
        return "idle" if self.left_seconds is None else "paused"


def clock_start(limit_minutes: int, now: datetime) -> RoundClock:
    """A clock started now with the event's time limit."""
    require_whole(limit_minutes, "the time limit in minutes", 1)
    return RoundClock(ends_at=now + timedelta(minutes=limit_minutes))


def clock_left(clock: RoundClock, now: datetime) -> int | None:
    """Whole seconds left (0 once time is up), None while the clock has not started."""
    if clock.ends_at is not None:
        return max(0, int((clock.ends_at - now).total_seconds()))
    return clock.left_seconds


def clock_pause(clock: RoundClock, now: datetime) -> RoundClock:
    """A running clock stops with what is left; a paused or idle one stays as it is."""
    if clock.state != "running":
        return clock
    return RoundClock(left_seconds=clock_left(clock, now))


def clock_resume(clock: RoundClock, now: datetime) -> RoundClock:
    """A paused clock runs on from what was left; a running or idle one stays as it is."""
    if clock.state != "paused":
        return clock
    return replace(clock, ends_at=now + timedelta(seconds=clock.left_seconds), left_seconds=None)


# --- a series with qualifiers (h-champ) ---------------------------------------------------
#
# Regional events send their best N to a final event. **The rule** (docs/championship.md,
# "Series with qualifiers"):
#
# - A region's order is its final classification: the final table's places first, then
#   the preliminary ranking (placement points → wins → the die roll the desk recorded).
#   Players of equal ``rank`` are still tied after all of that.
# - The best ``places`` of each region qualify.
# - **A player qualified in two regions takes one place**: the one where they ranked
#   better (a smaller rank; equal ranks: the region that comes first in the series' order,
#   i.e. the earlier event). In the other region the next player moves up — and so on, if
#   that one has qualified elsewhere with a better claim. Computed as one pass over every
#   (rank, region order) claim, best first: a claim is granted while the player has no
#   place yet and the region has one free.
# - **A tie at the cut** (the last player a region sends and players of the same rank
#   there who qualify nowhere): the regulation breaks ties by a die roll, which the desk
#   records while the event runs (``tie_break_roll_record``; the ranks then differ and
#   the rule follows them). An event that finished with players still tied at its cut
#   sends all of them (``tied=True``): nobody is left out by a roll that was never made,
#   and a finished event's table is not changed afterwards. They take no one's place
#   elsewhere (they qualify nowhere else; tied at two regions' cuts, they go for the
#   region first in order).


@dataclass(frozen=True)
class Placed:
    """A player's rank in a region's final classification (equal ranks: still tied)."""

    player: Hashable
    rank: int


@dataclass(frozen=True)
class Qualifier:
    player: Hashable
    region: Hashable
    rank: int
    #: qualified from beyond the region's first ``places`` (someone above took a place
    #: elsewhere, or tied at the cut)
    moved_up: bool = False
    #: tied with the region's last qualifier, no die roll recorded: sent as well
    tied: bool = False


def _claims(regions: Mapping[Hashable, Sequence[Placed]]):
    """Every (rank, region order, position, region, placed), best claim first."""
    claims = []
    for order, (region, table) in enumerate(regions.items()):
        ranked = sorted(enumerate(table), key=lambda item: item[1].rank)
        claims += [(p.rank, order, pos, region, p) for pos, (_i, p) in enumerate(ranked)]
    return sorted(claims, key=lambda c: c[:3])


def _tied_at_cut(region, table: Sequence[Placed], sent: list[Qualifier], taken: set):
    """The players of ``region`` tied with its last qualifier who qualify nowhere."""
    last = sent[-1].rank
    return [
        Qualifier(p.player, region, p.rank, moved_up=True, tied=True)
        for p in sorted(table, key=lambda p: p.rank)
        if p.rank == last and p.player not in taken
    ]


def _send_the_tied(regions, quota, sent: dict, taken: set) -> None:
    """Add to each full region the players still tied at its cut (a player tied at two
    regions' cuts goes for the first in order)."""
    for region, table in regions.items():
        if sent[region] and len(sent[region]) == quota[region]:
            tied = _tied_at_cut(region, table, sent[region], taken)
            taken.update(q.player for q in tied)
            sent[region] += tied


def _quota(regions, places) -> dict:
    quota = places if isinstance(places, Mapping) else dict.fromkeys(regions, places)
    for n in quota.values():
        require_whole(n, "places", 1)
    return quota


def qualifiers(
    regions: Mapping[Hashable, Sequence[Placed]], places: int | Mapping[Hashable, int]
) -> tuple[Qualifier, ...]:
    """The qualifiers of a series: each region's (in the mapping's order) best ``places``
    players (one number, or one per region) by its classification, a player qualified in
    two regions counted once (where they ranked better) and the next one moving up;
    players still tied at a region's cut all go. In region order, each region's
    qualifiers best first."""
    quota = _quota(regions, places)
    sent: dict[Hashable, list[Qualifier]] = {region: [] for region in regions}
    taken: set = set()
    for _rank, _order, pos, region, placed in _claims(regions):
        if placed.player in taken or len(sent[region]) == quota[region]:
            continue
        taken.add(placed.player)
        sent[region].append(Qualifier(placed.player, region, placed.rank, pos >= quota[region]))
    _send_the_tied(regions, quota, sent, taken)
    return tuple(q for region in regions for q in sent[region])
