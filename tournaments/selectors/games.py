"""Read queries about games: one game with its result versions, rejected uploads and
logs, the seats' players, and the newest results of public leagues."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch

from games.engine.board import DEFAULT_COLOURS
from games.models import GameLog
from tournaments.models import (
    Entry,
    Fixture,
    RejectedSubmission,
    Result,
    Seat,
)
from tournaments.selectors.links import link_maker
from tournaments.selectors.prefetch import seats_prefetch


@dataclass
class LatestResult:
    """A row of the home page's latest results, as it shows it (plain values, links)."""

    url: str
    label: str
    league_url: str
    league_name: str
    players: list[str]
    winner: str | None
    has_log: bool
    decided_at: datetime | None


def latest_results(limit: int = 10) -> list[LatestResult]:
    """The newest confirmed results of public leagues, leaving out any game with a player
    who never accepted taking part (consent before a record is public): two queries of
    plain values (the results, the players of their games)."""
    rows = list(
        Result.objects.filter(state=Result.State.CONFIRMED, fixture__league__is_public=True)
        .exclude(fixture__seats__entry__state__in=[Entry.State.INVITED, Entry.State.REQUESTED])
        .order_by("-decided_at", "-created_at")
        .values_list(
            "fixture_id",
            "fixture__label",
            "fixture__number",
            "fixture__league__slug",
            "fixture__league__name",
            "winner__player__name",
            "game_log_id",
            "decided_at",
        )[:limit]
    )
    players: dict[int, list[str]] = {}
    for fixture_id, name in (
        Seat.objects.filter(fixture_id__in=[r[0] for r in rows])
        .values_list("fixture_id", "entry__player__name")
        .order_by("fixture_id", "position")
    ):
        players.setdefault(fixture_id, []).append(name)
    game_url, league_url = link_maker("tournaments:game"), link_maker("tournaments:league")
    return [
        LatestResult(
            url=game_url(fixture_id),
            label=label or str(number),
            league_url=league_url(slug),
            league_name=league_name,
            players=players.get(fixture_id, []),
            winner=winner,
            has_log=log_id is not None,
            decided_at=decided_at,
        )
        for fixture_id, label, number, slug, league_name, winner, log_id, decided_at in rows
    ]


def fixture_get(pk: int) -> Fixture:
    """A game with its league, seats and every result version (raises ``DoesNotExist``)."""
    return (
        Fixture.objects.select_related("league__owner", "cycle", "series", "start_depends_on")
        .prefetch_related(
            seats_prefetch(),
            Prefetch(
                "results",
                queryset=Result.objects.select_related(
                    "winner__player",
                    "submitted_by",
                    "submitted_via__entry__player",
                    "decided_by",
                    "decided_via__entry__player",
                    "forfeit_loser__player",
                    "game_log",
                )
                .defer("game_log__content")
                .order_by("-created_at", "-id"),
                to_attr="all_results",
            ),
        )
        .get(pk=pk)
    )


def current_result(fixture: Fixture) -> Result | None:
    """The version that counts, else the one awaiting a decision, else None."""
    results = fixture.all_results
    for state in (Result.State.CONFIRMED, Result.State.PENDING, Result.State.DISPUTED):
        for result in results:
            if result.state == state:
                return result
    return None


def fixture_rejections(fixture: Fixture, limit: int = 10) -> list[RejectedSubmission]:
    return list(fixture.rejections.select_related("submitted_by")[:limit])


def fixture_log(fixture: Fixture, log_id: int) -> GameLog:
    """A log submitted for this game (any version); raises ``GameLog.DoesNotExist``."""
    return GameLog.objects.filter(pk=log_id, results__fixture=fixture).distinct().get()


def seat_players(fixture: Fixture) -> dict[int, str]:
    """Board seat number → the name of the player holding that colour in this game."""
    colours = list(DEFAULT_COLOURS[fixture.league.board])
    out = {}
    for seat in fixture.seats.all():
        for colour in seat.colours:
            if colour in colours:
                out[colours.index(colour)] = seat.entry.player.name
    return out
