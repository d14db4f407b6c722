"""Recording die rolls that break ties: a dedicated roll-off for the standings, and the roll
for a remaining tie on count points in one time-limited game."""

from __future__ import annotations

from django.db import transaction

from core.reasons import TIE_ROLL
from tournaments.algorithms import open_draw
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.standings import TieBreakRoll as RollOff
from tournaments.algorithms.standings import roll_off_sequences
from tournaments.models import Entry, Fixture, League, Result, TieBreakRoll
from tournaments.selectors.formats import game_tie_rolls
from tournaments.services.errors import ServiceError, coded, from_algorithm
from tournaments.services.guards import require_organizer
from tournaments.services.results import fixture_lock, open_ties, result_version_create
from tournaments.services.standings import standings_invalidate


def _rounds_by_entry(league: League, rolls, allowed: dict[int, Entry] | None = None):
    """``[{player name, slug or entry id: roll}, …]`` → ``[{entry id: roll}, …]``,
    validated as a complete roll-off (first round by every player, re-rolls by exactly the
    tied players, 1–6)."""
    _check_rolls_shape(rolls)
    entries = allowed or {e.pk: e for e in league.entries.playing().select_related("player")}
    lookup = _entry_lookup(entries)
    rounds = [
        _round_by_entry(league, number, round_, lookup, at_board=bool(allowed))
        for number, round_ in enumerate(rolls, start=1)
    ]
    if len(rounds[0]) < 2:
        raise coded("tie_two_players", field="rolls")
    try:  # validated by name, so that a message names the players
        roll_off_sequences(RollOff(rounds=_by_name(rounds, entries)))
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="rolls") from None
    return rounds


def _by_name(rounds: list[dict[int, int]], entries: dict[int, Entry]) -> tuple[dict, ...]:
    """Roll rounds by entry id → by player name."""
    names = {pk: entries[pk].player.name for pk in entries}
    return tuple({names[pk]: v for pk, v in r.items()} for r in rounds)


def _check_rolls_shape(rolls) -> None:
    """Rolls are a non-empty list of rounds, each ``{player: roll}``."""
    if not isinstance(rolls, list) or not rolls or not all(isinstance(r, dict) for r in rolls):
        raise coded("tie_rolls_shape", field="rolls")


def _entry_lookup(entries: dict[int, Entry]) -> dict[str, int]:
    """How a roll may name its player (entry id, name or address, any case) → entry id."""
    lookup: dict[str, int] = {}
    for pk, entry in entries.items():
        lookup[str(pk)] = pk
        lookup[entry.player.name.casefold()] = pk
        lookup[entry.player.slug.casefold()] = pk
    return lookup


def _round_by_entry(league: League, number: int, round_: dict, lookup, *, at_board: bool):
    """One round of rolls, ``{player: roll}`` → ``{entry id: roll}`` (a roll a whole
    number; its range is the roll-off's check)."""
    converted = {}
    for who, roll in round_.items():
        pk = lookup.get(str(who).strip().casefold())
        if pk is None:
            raise _not_rolling(league, number, who, at_board=at_board)
        if isinstance(roll, bool) or not isinstance(roll, int):
            raise coded(
                "tie_roll_range", field="rolls", number=number, player=repr(who), roll=repr(roll)
            )
        converted[pk] = roll
    return converted


def _not_rolling(league: League, number: int, named, *, at_board: bool) -> ServiceError:
    """The player ``named`` in round ``number`` is not one of the players who roll."""
    if at_board:
        return coded("tie_roll_not_at_board", field="rolls", number=number, player=repr(named))
    return coded(
        "tie_roll_not_active", field="rolls", number=number, player=repr(named), league=league.name
    )


def _stored(rounds) -> list[dict[str, int]]:
    return [{str(pk): roll for pk, roll in r.items()} for r in rounds]


def tie_break_roll_record(*, league: League, by, rolls, note: str = "") -> TieBreakRoll:
    """An organizer records a roll-off between tied players (who rolled what; when is the
    moment of recording). The standings' die-roll tie-break uses the latest roll-off every
    member of a tied group took part in."""
    require_organizer(by, league)
    if league.status == League.Status.FINISHED:
        raise coded("tie_league_finished", league=league.name)
    rounds = _rounds_by_entry(league, rolls)
    with transaction.atomic():
        roll = TieBreakRoll.objects.create(
            league=league, rounds=_stored(rounds), note=(note or "").strip()[:200], recorded_by=by
        )
        standings_invalidate(league)
        return roll


def game_tie_roll_record(*, fixture: Fixture, by, rolls, note: str = "") -> TieBreakRoll:
    """An organizer records the die roll for players of a time-limited game still tied on
    count points. The game's counted result is placed again with it (a new version)."""
    league = fixture.league
    require_organizer(by, league)
    seated = {s.entry_id: s.entry for s in fixture.seats.select_related("entry__player")}
    rounds = _rounds_by_entry(league, rolls, allowed=seated)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        result = fixture.results.filter(state=Result.State.CONFIRMED).first()
        _check_ties_rolled(fixture, result, rounds, seated)
        roll = TieBreakRoll.objects.create(
            league=league,
            fixture=fixture,
            rounds=_stored(rounds),
            note=(note or "").strip()[:200],
            recorded_by=by,
        )
        _replace_placings(fixture, result, by, result_version_create)
        return roll


def _check_ties_rolled(fixture: Fixture, result: Result | None, rounds, seated) -> None:
    """The game's counted result has a tie on count points, and every tied player rolls."""
    tied = _tied_players(fixture, result)
    if not tied <= set(rounds[0]):
        names = ", ".join(seated[p].player.name for p in sorted(tied))
        raise coded("tie_all_roll", field="rolls", names=names)


def _tied_players(fixture: Fixture, result: Result | None) -> set[int]:
    """The players of the counted result tied on count points (refused without a tie)."""
    if result is None or not open_ties(fixture, result):
        raise coded("tie_nothing")
    return {p for group in open_ties(fixture, result) for p in group}


def _replace_placings(fixture: Fixture, result: Result, by, new_version) -> Result:
    finished = list(dict.fromkeys(result.colour_places))
    points = {int(k): v for k, v in result.count_points.items()}
    players = [s.entry_id for s in fixture.seats.all()]
    placed = open_draw.place_unfinished_game(players, points, finished, game_tie_rolls(fixture))
    copied = {
        name: getattr(result, name)
        for name in (
            "source",
            "game_log",
            "colour_places",
            "finished_colours",
            "both_finished",
            "counted_pawns",
            "completed_colours",
            "captures",
            "count_points",
            "game_time",
            "verified",
        )
    }
    return new_version(
        fixture,
        by,
        confirmed=True,
        winner_id=placed.placings[0],
        placings=list(placed.placings),
        reason=TIE_ROLL,
        **copied,
    )
