"""A league's schedule: DRRs (or stages) → rounds → games, optionally one player's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, Q

from tournaments.models import (
    Fixture,
    League,
    Player,
)
from tournaments.selectors.prefetch import confirmed_prefetch, seats_prefetch


@dataclass
class ScheduleRound:
    number: int
    fixtures: list[Fixture] = field(default_factory=list)
    byes: list[Player] = field(default_factory=list)


@dataclass
class RollRoundView:
    """One round of the seeding die rolls: the places it decided and each player's roll."""

    number: int
    places: tuple[int, int]
    rolls: list[tuple[str, int]]
    reroll: bool


@dataclass
class Seeding:
    """How a DRR was seeded: drawn by the platform (its seed) or the organizer's rolls,
    every roll round (re-rolls of ties following) and the resulting numbers."""

    drawn: bool
    seed: int | None
    rounds: list[RollRoundView]
    numbers: list[tuple[int, Player]]


def cycle_seeding(cycle) -> Seeding:
    seeds = list(cycle.seeds.select_related("entry__player").order_by("number"))
    names = {str(s.entry_id): s.entry.player.name for s in seeds}
    rounds = [_roll_round(i, rnd, names) for i, rnd in enumerate(cycle.rolls or [])]
    return Seeding(
        drawn=cycle.seed is not None,
        seed=cycle.seed,
        rounds=rounds,
        numbers=[(s.number, s.entry.player) for s in seeds],
    )


def _roll_round(i: int, rnd: dict, names: dict[str, str]) -> RollRoundView:
    """Roll round ``i`` as stored, its rolls in the order they were typed (or rolled): the
    stored object's keys are not ordered (PostgreSQL's jsonb), so the round keeps its
    order as a list."""
    given = rnd.get("rolls") or {}
    rolls = [(names.get(k, k), given[k]) for k in _typed_keys(rnd.get("order") or [], given)]
    places = tuple(rnd.get("places") or (0, 0))
    return RollRoundView(rnd.get("round", i + 1), places, rolls, i > 0)


def _typed_keys(order: list[str], given: dict[str, int]) -> list[str]:
    """The keys of ``given`` in the stored ``order``, any others after them."""
    typed = [k for k in order if k in given]
    return typed + [k for k in given if k not in typed]


@dataclass
class ScheduleBlock:
    """One DRR (``cycle``) or one playoff series, with its games by round."""

    title_kind: str  # "cycle" | "series" | "final" | "event" | "other"
    number: int | None
    name: str
    rounds: list[ScheduleRound] = field(default_factory=list)
    obj: Any = None
    seeding: Seeding | None = None

    def add(self, fixture: Fixture) -> None:
        """Add the next game (games come in round order)."""
        if not self.rounds or self.rounds[-1].number != fixture.round:
            self.rounds.append(ScheduleRound(fixture.round))
        self.rounds[-1].fixtures.append(fixture)


#: the part of a schedule holding every game outside the DRRs (series, events, final table)
OTHER_PART = "other"


@dataclass
class SchedulePart:
    """One page of a league's schedule: a DRR (``key`` its number) or every game outside
    the DRRs (``key`` ``"other"``), with how many of its games are still to settle."""

    key: str
    number: int | None
    games: int
    open: int


def schedule_parts(league: League, player: Player | None = None) -> list[SchedulePart]:
    """The schedule's parts in order (one query): each DRR, then the games outside them."""
    fixtures = league.fixtures.all()
    if player is not None:
        fixtures = fixtures.filter(seats__entry__player=player)
    rows = (
        fixtures.order_by()
        .values_list("cycle__number")
        .annotate(
            games=Count("id"), open=Count("id", filter=~Q(status__in=Fixture.CLOSED_STATUSES))
        )
    )
    parts = [
        SchedulePart(str(n) if n is not None else OTHER_PART, n, games, open_)
        for n, games, open_ in rows
    ]
    return sorted(parts, key=lambda p: (p.number is None, p.number or 0))


def current_part(parts: list[SchedulePart], wanted: str | None = None) -> SchedulePart | None:
    """The part asked for, else the current one: the first with a game still to settle,
    else the last (a finished league shows its end)."""
    if not parts:
        return None
    for part in parts:
        if part.key == wanted:
            return part
    return next((p for p in parts if p.open), parts[-1])


def part_window(
    parts: list[SchedulePart], part: SchedulePart | None, around: int = 3
) -> list[SchedulePart | None]:
    """The parts to link to: the first, the last and ``around`` either side of ``part``;
    ``None`` marks a gap (so a league of hundreds of DRRs links a dozen)."""
    if part is None:
        return []
    at = parts.index(part)
    keep = {0, len(parts) - 1, *range(at - around, at + around + 1)}
    out: list[SchedulePart | None] = []
    for i, p in enumerate(parts):
        if i in keep:
            out.append(p)
        elif out and out[-1] is not None:
            out.append(None)
    return out


#: about this many games a schedule page: a part (DRR) with more is paged by its rounds
GAMES_PER_PAGE = 240


def _part_fixtures(fixtures, player: Player | None, part: SchedulePart | None):
    if player is not None:
        fixtures = fixtures.filter(seats__entry__player=player)
    if part is None:
        return fixtures
    if part.number is None:
        return fixtures.filter(cycle__isnull=True)
    return fixtures.filter(cycle__number=part.number)


def round_pages(league: League, player: Player | None, part: SchedulePart | None, wanted=None):
    """``None`` when the part fits a page (:data:`GAMES_PER_PAGE`); else a Django ``Page``
    of its round numbers (``?rounds=`` picks one), by default the page holding the first
    round with a game to play (a DRR of a hundred players is shown a few rounds at a
    time). One query."""
    if part is None or part.games <= GAMES_PER_PAGE:
        return None
    rows = sorted(
        _part_fixtures(league.fixtures.all(), player, part)
        .order_by()
        .values_list("round")
        .annotate(open=Count("id", filter=~Q(status__in=Fixture.CLOSED_STATUSES)))
    )
    numbers = [number for number, _ in rows]
    per_round = -(-part.games // max(1, len(numbers)))
    size = max(1, GAMES_PER_PAGE // per_round)
    paginator = Paginator(numbers, size)
    return paginator.get_page(wanted or _first_open_page(rows, size))


def _first_open_page(rows: list[tuple[int, int]], size: int) -> int:
    """The page of the first round with a game to play (else the last round's)."""
    current = next((i for i, (_, open_) in enumerate(rows) if open_), len(rows) - 1)
    return current // size + 1


def schedule(
    league: League,
    player: Player | None = None,
    part: SchedulePart | None = None,
    rounds=None,
) -> list[ScheduleBlock]:
    """The league's games by DRR and round (then playoff series), each with its seats and
    confirmed result. With ``player``, only that player's games; with ``part``, only that
    part's (one DRR, or the games outside the DRRs): a page as long as one DRR, whatever
    the league's history; with ``rounds``, only those rounds of it (:func:`round_pages`)."""
    fixtures = (
        league.fixtures.select_related("cycle", "series", "start_depends_on")
        .prefetch_related(seats_prefetch(), confirmed_prefetch())
        .order_by("cycle__number", "series__round", "series__slot", "round", "number", "id")
    )
    fixtures = _part_fixtures(fixtures, player, part)
    if rounds is not None:
        fixtures = fixtures.filter(round__in=list(rounds))
    blocks: dict[tuple, ScheduleBlock] = {}
    for fixture in fixtures:
        key, make = _block_of(league, fixture)
        blocks[key] = block = blocks.get(key) or make()
        if block.seeding is None and player is None and fixture.cycle_id:
            block.seeding = cycle_seeding(fixture.cycle)  # a DRR's whole schedule only
        block.add(fixture)
    for block in blocks.values():
        _mark_byes(block)
    return [blocks[k] for k in sorted(blocks)]


def _block_of(league: League, fixture: Fixture):
    """The key of the block a game belongs to (its DRR, its playoff series, the final
    table, or the other games), and how to make that block."""
    if fixture.cycle_id:
        cycle = fixture.cycle
        return (0, cycle.number, 0), lambda: ScheduleBlock("cycle", cycle.number, "", obj=cycle)
    if fixture.series_id:
        s = fixture.series
        return (1, s.round, s.slot), lambda: ScheduleBlock("series", s.round, s.name, obj=s)
    if fixture.stage == Fixture.Stage.FINAL:
        return (3, 0, 0), lambda: ScheduleBlock("final", None, "")
    kind = "other" if league.event_kind == League.EventKind.LEAGUE else "event"
    return (2, 0, 0), lambda: ScheduleBlock(kind, None, league.get_event_kind_display())


def _mark_byes(block: ScheduleBlock) -> None:
    """In a seeded DRR, each round's byes: the seeded players without a game in it."""
    if block.seeding is None:
        return
    everyone = [p for _, p in block.seeding.numbers]
    for rnd in block.rounds:
        playing = _players_in(rnd.fixtures)
        rnd.byes = [p for p in everyone if p.pk not in playing]


def _players_in(fixtures: list[Fixture]) -> set[int]:
    """The players seated at the games (seats prefetched)."""
    return {s.entry.player_id for f in fixtures for s in f.seats.all()}


def current_schedule(league: League) -> list[ScheduleBlock]:
    """The current part of the schedule (the embeds: what a club's site shows now)."""
    part = current_part(schedule_parts(league))
    return schedule(league, part=part) if part else []
