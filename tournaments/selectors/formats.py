"""Read queries of the formats: a Grand Prix's points and status, the recorded tie-break
rolls of a league (who rolled what, when) and of one time-limited game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tournaments.algorithms import grand_prix
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.standings import TieBreakRoll
from tournaments.models import Fixture, League, Result

UNDECIDED = (Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED)


def grand_prix_points(league: League) -> dict[int, int]:
    """Every active player's GP points from the counted games (``grand_prix.game_points``:
    10/6/4/3/2/1 per colour place plus the bonus)."""
    bonus = grand_prix.BONUS[league.format]
    points = dict.fromkeys(league.entries.playing().values_list("pk", flat=True), 0)
    for places in Result.objects.filter(
        fixture__league=league, state=Result.State.CONFIRMED
    ).values_list("colour_places", flat=True):
        for player, value in grand_prix.game_points(places, bonus=bonus).items():
            if player in points:
                points[player] += value
    return points


def grand_prix_status(league: League) -> grand_prix.GrandPrixStatus:
    """Leaders, certain winner, games that can be cancelled, whether an extra game is
    needed; the games cancelled because the winner was certain count as games left (a
    correction may bring them back). Raises ``AlgorithmError`` for an unusable table."""
    left = league.fixtures.filter(status__in=UNDECIDED).count()
    cancelled = league.fixtures.filter(cancel_reason=Fixture.CancelReason.DECIDED).count()
    return grand_prix.grand_prix_status(
        grand_prix_points(league), left + cancelled, fmt=league.format
    )


@dataclass(frozen=True)
class GrandPrixSummary:
    points: list[tuple[str, int]]
    leaders: list[str]
    winner: str | None
    games_left: int
    games_cancelled: int
    extra_game_needed: bool
    started: bool = True  # a game has counted (before that nobody leads and nobody is tied)


def grand_prix_summary(league: League) -> GrandPrixSummary | None:
    """The GP table for the standings page (None when it is not a Grand Prix or the table
    cannot be judged yet)."""
    if league.event_kind != League.EventKind.GRAND_PRIX:
        return None
    names = dict(league.entries.values_list("pk", "player__name"))
    try:
        status = grand_prix_status(league)
    except AlgorithmError:
        return None
    points = grand_prix_points(league)
    return GrandPrixSummary(
        points=sorted(((names[p], v) for p, v in points.items()), key=lambda t: (-t[1], t[0])),
        leaders=[names[p] for p in status.leaders],
        winner=names[status.winner] if status.winner is not None else None,
        games_left=league.fixtures.filter(status__in=UNDECIDED).count(),
        games_cancelled=league.fixtures.filter(cancel_reason=Fixture.CancelReason.DECIDED).count(),
        extra_game_needed=status.extra_game_needed,
        started=Result.objects.filter(
            fixture__league=league, state=Result.State.CONFIRMED
        ).exists(),
    )


@dataclass(frozen=True)
class RecordedRoll:
    players: list[str]
    rounds: list[list[tuple[str, int]]]
    recorded_at: datetime
    recorded_by: str | None
    note: str
    game: str | None


def tie_break_rolls(league: League) -> list[RecordedRoll]:
    """The league's recorded tie-break rolls, oldest first: who rolled what, when."""
    names = dict(league.entries.values_list("pk", "player__name"))
    return [
        _recorded_roll(roll, names)
        for roll in league.tie_break_rolls.select_related("recorded_by", "fixture")
    ]


def _recorded_roll(roll, names: dict[int, str]) -> RecordedRoll:
    """A stored roll (``models.TieBreakRoll``) with the players' names (an entry gone: its id)."""
    return RecordedRoll(
        players=[names.get(pk, str(pk)) for pk in roll.entry_ids],
        rounds=[[(names.get(int(k), k), v) for k, v in r.items()] for r in roll.rounds],
        recorded_at=roll.recorded_at,
        recorded_by=roll.recorded_by.get_username() if roll.recorded_by_id else None,
        note=roll.note,
        game=_game_name(roll.fixture) if roll.fixture_id else None,
    )


def _game_name(fixture: Fixture) -> str:
    return fixture.label or str(fixture.number)


def game_tie_rolls(fixture: Fixture) -> list[TieBreakRoll]:
    """The die rolls an organizer recorded for a tie on count points in this game, oldest
    first, as the placing algorithm reads them (``open_draw.place_unfinished_game``)."""
    return [
        TieBreakRoll(rounds=tuple({int(k): v for k, v in r.items()} for r in roll.rounds))
        for roll in fixture.tie_break_rolls.order_by("recorded_at", "pk")
    ]
