"""A player's page: their leagues, games and log statistics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Prefetch

from games.engine.board import DEFAULT_COLOURS
from games.models import GameLog
from games.replay import log_stats, stats_cache_key
from tournaments.models import (
    Entry,
    Fixture,
    League,
    Player,
    Result,
    Seat,
)
from tournaments.selectors.visibility import visible_leagues


@dataclass
class PlayerGame:
    fixture: Fixture
    seat: Seat
    result: Result | None
    won: bool | None
    place: int | None


@dataclass
class PlayerLeague:
    league: League
    entry: Entry
    games: list[PlayerGame] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.won)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.won is False)


@dataclass
class PlayerStats:
    logged_games: int = 0
    rolls: int = 0
    sixes: int = 0
    captures: int = 0
    captured: int = 0
    huffed: int = 0

    @property
    def rolls_per_game(self) -> float | None:
        return self.rolls / self.logged_games if self.logged_games else None

    @property
    def six_rate(self) -> float | None:
        return self.sixes / self.rolls if self.rolls else None


@dataclass
class PlayerPage:
    player: Player
    leagues: list[PlayerLeague]
    colours: list[tuple[tuple[str, ...], int]]
    stats: PlayerStats


def player_get(slug: str) -> Player:
    return Player.objects.get(slug=slug)


def player_page(player: Player, user) -> PlayerPage:
    """A player's leagues (those ``user`` may see), games with counted results, the colours
    they held and statistics from the logs of those games."""
    leagues = visible_leagues(user)
    entries = list(
        Entry.objects.filter(player=player, league__in=leagues, state=Entry.State.ACCEPTED)
        .select_related("league")
        .order_by("-league__created_at")
    )
    seats = list(
        Seat.objects.filter(entry__in=entries)
        .select_related("fixture__cycle", "fixture__series")
        .prefetch_related(
            Prefetch("fixture__seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "fixture__results",
                queryset=Result.objects.filter(state=Result.State.CONFIRMED)
                .select_related("winner__player", "game_log")
                .defer("game_log__content"),
                to_attr="confirmed_results",
            ),
        )
        .order_by("fixture__league", "fixture__cycle__number", "fixture__round", "fixture__number")
    )
    by_entry = {e.pk: PlayerLeague(e.league, e) for e in entries}
    colours: Counter[tuple[str, ...]] = Counter()
    logs: list[tuple[GameLog, Seat]] = []
    for seat in seats:
        fixture = seat.fixture
        result = fixture.confirmed_results[0] if fixture.confirmed_results else None
        colours[tuple(seat.colours)] += 1
        won = place = None
        if result is not None:
            won = result.winner_id == seat.entry_id if result.winner_id else None
            if result.placings and seat.entry_id in result.placings:
                place = result.placings.index(seat.entry_id) + 1
            if won is None and place is not None:
                won = place == 1
            if result.game_log_id:
                logs.append((result.game_log, seat))
        by_entry[seat.entry_id].games.append(PlayerGame(fixture, seat, result, won, place))
    return PlayerPage(
        player=player,
        leagues=list(by_entry.values()),
        colours=colours.most_common(),
        stats=_player_stats(logs),
    )


def _player_stats(logs: list[tuple[GameLog, Seat]]) -> PlayerStats:
    """Sum the per-colour statistics of each log over the colours the player held. Cached
    per log; only logs not in the cache are loaded (their text can be large)."""
    stats = PlayerStats()
    if not logs:
        return stats
    shas = {log.sha256 for log, _ in logs}
    found = cache.get_many([stats_cache_key(sha) for sha in shas])
    per_log: dict[str, dict[int, dict[str, int]]] = {
        sha: {int(k): v for k, v in found[stats_cache_key(sha)].items()}
        for sha in shas
        if stats_cache_key(sha) in found
    }
    missing = shas - set(per_log)
    if missing:
        for sha, content in GameLog.objects.filter(sha256__in=missing).values_list(
            "sha256", "content"
        ):
            try:
                per_log[sha] = log_stats(content)
            except ValueError:  # a stored log the current engine refuses: no statistics
                continue
    for log, seat in logs:
        table = per_log.get(log.sha256)
        if table is None:
            continue
        colours = list(DEFAULT_COLOURS.get(log.board, ()))
        stats.logged_games += 1
        for colour in seat.colours:
            if colour not in colours:
                continue
            row = table.get(colours.index(colour))
            if not row:
                continue
            stats.rolls += row["rolls"]
            stats.sixes += row["sixes"]
            stats.captures += row["captures"]
            stats.captured += row["captured"]
            stats.huffed += row["huffed"]
    return stats
