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
from dataclasses import dataclass

EntryId = Hashable


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


def team_ranking(
    points: Mapping[EntryId, int], teams: Mapping[EntryId, str], best: int = 0
) -> tuple[TeamRow, ...]:
    """The team classification: every team with a member in ``points`` (entries without a
    team are left out), its points the sum of its best ``best`` members' (all when 0),
    ranked by points then best member; equal teams share the place, named in order."""
    if isinstance(best, bool) or not isinstance(best, int) or best < 0:
        raise ValueError(f"best must be a whole number ≥ 0, got {best!r}")
    members: dict[str, list[tuple[EntryId, int]]] = {}
    for entry, team in teams.items():
        if team and entry in points:
            members.setdefault(team, []).append((entry, points[entry]))
    rows = []
    for team, group in members.items():
        group.sort(key=lambda m: -m[1])
        counted = tuple(group[:best] if best else group)
        rows.append((team, sum(p for _e, p in counted), counted, len(group)))

    def key(row):
        return (-row[1], -(row[2][0][1] if row[2] else 0))

    rows.sort(key=lambda r: (*key(r), r[0].casefold(), r[0]))
    ranked: list[TeamRow] = []
    for i, (team, total, counted, size) in enumerate(rows):
        rank = ranked[-1].rank if i and key(rows[i - 1]) == key(rows[i]) else i + 1
        ranked.append(TeamRow(team, rank, total, counted, size))
    return tuple(ranked)
