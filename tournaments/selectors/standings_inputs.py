"""What the standings are computed from, read from the database: a league's counted
results as ``GameOutcome`` records, its precedence as metrics, its roll-offs. Pure reads,
shared by the standings worker (``services.standings``) and by selectors that rank a league
now (``selectors.open_tournaments``)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from django.db import connection

from tournaments.algorithms.standings import (
    MAX_GAME_SECONDS,
    GameOutcome,
    PlacementPoints,
    TieBreakRoll,
)
from tournaments.models import Fixture, League, Result, Seat

RESULT_FIELDS = (
    "fixture_id",
    "winner_id",
    "placings",
    "colour_places",
    "both_finished",
    "counted_pawns",
    "completed_colours",
    "game_time",
    "forfeit_loser_id",
)


def _counted_results(league: League) -> list[dict[str, Any]]:
    """The league's confirmed regular-stage results as plain dicts, in one query.

    On PostgreSQL the database aggregates them into one JSON text, decoded at once: for
    10,000 games that is several times cheaper than decoding five JSON columns per row
    (bench/standings.py). Elsewhere (the embedded SQLite default) the ORM reads them.
    """
    counted = Result.objects.filter(
        fixture__league=league,
        fixture__series__isnull=True,
        fixture__stage=Fixture.Stage.REGULAR,
        state=Result.State.CONFIRMED,
    )
    if not_counted_game0(league):
        counted = counted.exclude(fixture__number=0)
    if connection.vendor == "postgresql":
        return _aggregated_in_json(counted)
    return list(counted.values(*RESULT_FIELDS))


def _aggregated_in_json(counted) -> list[dict[str, Any]]:
    """The results' fields aggregated by PostgreSQL into one JSON text, decoded at once."""
    sql, params = counted.values(*RESULT_FIELDS).query.sql_with_params()
    columns = ", ".join(f"q.{name}" for name in RESULT_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT json_agg(json_build_array({columns}))::text FROM ({sql}) AS q", params
        )
        text = cursor.fetchone()[0]
    return [dict(zip(RESULT_FIELDS, row, strict=True)) for row in json.loads(text or "[]")]


def not_counted_game0(league: League) -> bool:
    """A Challengers event's game 0 decides who starts game 1 and, by default
    (``League.game0_counts`` off), is not counted in the table."""
    return league.event_kind == League.EventKind.CHALLENGERS and not league.game0_counts


def stored_game_time(value: Any) -> float | None:
    """A stored result's game time as the standings read it: seconds from 0 to
    ``MAX_GAME_SECONDS``, else unknown (``None``). Whatever an old row holds — 1.7e308 from
    a log stored before game-log.md bounded ``"t"``, infinity, NaN, a negative number —
    never stops a league's recompute; it only leaves that entry's time total unknown."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not 0 <= value <= MAX_GAME_SECONDS:  # NaN fails both comparisons
        return None
    return float(value)


def outcomes_for(league: League) -> list[GameOutcome]:
    """Every counted result of the league's regular stage, as ``GameOutcome`` records
    (two queries, whatever the number of games)."""
    results = _counted_results(league)
    seats: dict[int, list[int]] = defaultdict(list)
    for fixture_id, entry_id in (
        Seat.objects.filter(
            fixture__league=league, fixture__series__isnull=True, fixture__stage="regular"
        )
        .order_by("fixture_id", "position")
        .values_list("fixture_id", "entry_id")
    ):
        seats[fixture_id].append(entry_id)
    return [_outcome(r, tuple(seats[r["fixture_id"]])) for r in results]


def _outcome(r: dict[str, Any], players: tuple[int, ...]) -> GameOutcome:
    """One counted result (its stored fields) as the standings read it."""
    return GameOutcome(
        game_id=r["fixture_id"],
        players=players,
        winner=r["winner_id"],
        player_placings=_winner_first(r["winner_id"], tuple(r["placings"])),
        colour_places=tuple(r["colour_places"]),
        both_finished_order=tuple(r["both_finished"]),
        counted_pawns=_by_entry(r["counted_pawns"]),
        completed_colours=_by_entry(r["completed_colours"]),
        game_time=stored_game_time(r["game_time"]),
        forfeit_loser=r["forfeit_loser_id"],
    )


def _winner_first(winner: int | None, placings: tuple[int, ...]) -> tuple[int, ...]:
    """The placings with the winner first (a result entered by hand may say otherwise)."""
    if winner is None or not placings or placings[0] == winner:
        return placings
    return (winner, *[p for p in placings if p != winner])


def _seeding_roll_off(cycle) -> tuple[dict[int, int], ...]:
    """A DRR's seeding rolls as a roll-off between its players (none for fewer than two)."""
    rounds = tuple(_by_entry(round_.get("rolls", {})) for round_ in cycle.rolls)
    return rounds if rounds and len(rounds[0]) > 1 else ()


def _by_entry(stored: dict[str, Any]) -> dict[int, Any]:
    """A stored ``{entry id as text: value}`` with the entry ids as numbers."""
    return {int(k): v for k, v in stored.items()}


def league_metrics(league: League) -> list:
    """The league's precedence as metrics; an open tournament's own placement-points
    scheme (League.points_scheme, e.g. 5/3/2/1) replaces the default 5/3/1/0."""
    return [
        PlacementPoints(scheme=tuple(league.points_scheme))
        if key == "placement_points" and league.points_scheme
        else key
        for key in league.precedence
    ]


def roll_offs_for(league: League) -> list[TieBreakRoll]:
    """Every recorded roll-off of the league, oldest first, for the standings' die-roll
    tie-break: each DRR's seeding rolls (every round, re-rolls included) and the dedicated
    tie-break rolls (not those of a single game)."""
    timed = []
    for cycle in league.cycles.order_by("number"):
        if rounds := _seeding_roll_off(cycle):
            timed.append((cycle.created_at, 0, cycle.pk, TieBreakRoll(rounds, cycle.created_at)))
    for roll in league.tie_break_rolls.filter(fixture__isnull=True):
        rounds = tuple(_by_entry(r) for r in roll.rounds)
        timed.append((roll.recorded_at, 1, roll.pk, TieBreakRoll(rounds, roll.recorded_at)))
    return [item[-1] for item in sorted(timed, key=lambda t: t[:3])]
