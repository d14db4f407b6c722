"""What a result entered without a log records, per format, checked field by field.

tournament.md, "Games and their results": 2T/3T record the winner and counted pawns (and
3T the placings of all three); 2T+/3T+ also completed colours and game time; GP every
colour's finishing place; open games the placings, or count points when a time limit
ended the game. ``hand_result_fields`` turns what a player or an organizer typed into the
fields a result derived from a log carries, so the standings treat both alike; anything
wrong raises ``ServiceError`` naming the field, and nothing is stored.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.formats import get_format
from tournaments.models import Fixture
from tournaments.services.errors import coded

#: a game longer than a day is a typing error (seconds)
MAX_GAME_TIME = 24 * 3600
#: count points of one colour: four pawns in the house, 75 each (tournament.md)
COUNT_POINTS_PER_COLOUR = 4 * 75

#: the fields each kind of format records by hand
FIELDS = {
    "threat": {"winner", "counted_pawns", "placings"},
    "threat-plus": {"winner", "counted_pawns", "completed_colours", "game_time", "placings"},
    "grand-prix": {"colour_places", "winner"},
    "open": {"placings", "count_points", "winner"},
}


@dataclass(frozen=True)
class HandResult:
    """A result as typed: entry ids for players, the league's colour names for colours.
    ``None`` means "not given"."""

    winner: int | None = None
    counted_pawns: Mapping[int, int] | None = None
    completed_colours: Mapping[int, int] | None = None
    game_time: float | None = None
    colour_places: Mapping[str, int] | None = None
    placings: Sequence[int] | None = None
    count_points: Mapping[int, int] | None = None

    def given(self) -> set[str]:
        return {name for name, value in self.__dict__.items() if value is not None}


def format_kind(code: str) -> str:
    """``threat`` (2T, 3T), ``threat-plus`` (2T+, 3T+), ``grand-prix`` (GP, GP+), ``open``."""
    fmt = get_format(code)
    if code.startswith("GP"):
        return "grand-prix"
    if fmt.layout == "single":
        return "open"
    return "threat-plus" if fmt.counted_pawns == "both-colours" else "threat"


def hand_result_fields(fixture: Fixture, typed: HandResult) -> dict[str, Any]:
    """The result fields (as ``Result`` stores them) of a game entered without a log."""
    seats = list(fixture.seats.all())
    kind = format_kind(fixture.game_format)
    extra = typed.given() - FIELDS[kind]
    if extra:
        name = sorted(extra)[0]
        label = get_format(fixture.game_format).label
        recorded = ", ".join(sorted(FIELDS[kind]))
        raise coded(
            "hand_field_not_recorded", field=name, format=label, given=name, recorded=recorded
        )
    ids = [s.entry_id for s in seats]
    for name in ("counted_pawns", "completed_colours", "count_points"):
        value = getattr(typed, name)
        if value is not None:
            _check_entry_map(name, value, ids)
    if typed.winner is not None and typed.winner not in ids:
        raise coded("hand_winner_not_here", field="winner")
    if typed.placings is not None:
        _check_placings(typed.placings, ids)
    if kind == "grand-prix":
        return _grand_prix(seats, typed)
    if kind == "open":
        return _open(seats, typed)
    return _threat(fixture, seats, typed, plus=kind == "threat-plus")


def _check_entry_map(name: str, value: Mapping[int, int], ids: list[int]) -> None:
    for key, number in value.items():
        if key not in ids:
            raise coded("hand_entry_not_here", field=name, given=name, entry=key)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise coded("hand_whole_numbers", field=name, given=name)


def _check_placings(placings: Sequence[int], ids: list[int]) -> None:
    if sorted(placings) != sorted(ids) or len(set(placings)) != len(placings):
        raise coded("hand_placings_everyone", field="placings")


def _threat(fixture: Fixture, seats, typed: HandResult, *, plus: bool) -> dict[str, Any]:
    ids = [s.entry_id for s in seats]
    if typed.winner is None:
        raise coded("hand_winner_missing", field="winner")
    winner = typed.winner
    most = 8 if plus else 4
    counted: dict[int, int] = {}
    for entry_id in ids:
        value = (typed.counted_pawns or {}).get(entry_id, most if entry_id == winner else 0)
        if not 0 <= value <= most:
            raise coded("hand_pawns_range", field="counted_pawns", most=most)
        counted[entry_id] = value
    if counted[winner] != most:
        raise coded("hand_winner_pawns", field="counted_pawns", most=most)
    if any(n == most for e, n in counted.items() if e != winner):
        raise coded("hand_only_winner_pawns", field="counted_pawns", most=most, below=most - 1)
    completed = {e: (1 if e == winner else 0) for e in ids}  # 2T: the winner's best colour
    game_time = None
    if plus:
        completed = {e: (2 if e == winner else 0) for e in ids}
        completed.update(typed.completed_colours or {})
        _check_completed(completed, counted, winner)
        if typed.game_time is not None:
            game_time = float(typed.game_time)
            if not 0 < game_time <= MAX_GAME_TIME:
                raise coded("hand_time_range", field="game_time", most=MAX_GAME_TIME)
    if typed.placings is not None:
        placings = list(typed.placings)
        if placings[0] != winner:
            raise coded("hand_placings_winner", field="placings")
        _check_order_by(placings[1:], counted, "hand_placings_pawns", "placings")
    else:
        others = [e for e in ids if e != winner]
        if len(others) > 1 and len({counted[e] for e in others}) < len(others):
            raise coded("hand_pawns_tied", field="placings")
        placings = [winner, *sorted(others, key=lambda e: -counted[e])]
    return {
        "winner_id": winner,
        "placings": placings,
        "colour_places": [],
        "both_finished": [winner] if plus else [],
        "counted_pawns": {str(k): v for k, v in counted.items()},
        "completed_colours": {str(k): v for k, v in completed.items()},
        "game_time": game_time,
        "count_points": {},
    }


def _check_completed(completed: dict[int, int], counted: dict[int, int], winner: int) -> None:
    """Completed colours must agree with the counted pawns: a finished colour has its four
    pawns home; only the winner finished both colours."""
    field = "completed_colours"
    if completed[winner] != 2:
        raise coded("hand_winner_both", field=field)
    for entry, done in completed.items():
        if entry == winner:
            continue
        if done > 1:
            raise coded("hand_only_winner_both", field=field)
        low, high = (4, 7) if done == 1 else (0, 6)
        if not low <= counted[entry] <= high:
            raise coded(
                "hand_pawns_for_done",
                field=field,
                done=done,
                low=low,
                high=high,
                counted=counted[entry],
            )


def _check_order_by(order: list[int], values: dict[int, int], what: str, field: str) -> None:
    """``what``: the code refusing placings that disagree with ``values``."""
    for better, worse in itertools.pairwise(order):
        if values[better] < values[worse]:
            raise coded(what, field=field)


def _grand_prix(seats, typed: HandResult) -> dict[str, Any]:
    owner = {colour: s.entry_id for s in seats for colour in s.colours}
    places = dict(typed.colour_places or {})
    field = "colour_places"
    if not places:
        raise coded("hand_places_missing", field=field)
    for colour in places:
        if colour not in owner:
            raise coded("hand_colour_unknown", field=field, colour=colour)
    missing = [c for c in owner if c not in places]
    if missing:
        raise coded("hand_places_give", field=field, colour=missing)
    if sorted(places.values()) != list(range(1, len(owner) + 1)):
        raise coded("hand_places_range", field=field, count=len(owner))
    order = sorted(places, key=places.__getitem__)
    colour_places = [owner[c] for c in order]
    done: dict[int, int] = {}
    both_finished: list[int] = []
    for colour in order:
        entry = owner[colour]
        done[entry] = done.get(entry, 0) + 1
        if done[entry] == sum(1 for c in owner.values() if c == entry):
            both_finished.append(entry)
    winner = both_finished[0]
    if typed.winner is not None and typed.winner != winner:
        raise coded("hand_places_winner", field="winner")
    return {
        "winner_id": winner,
        "placings": both_finished,
        "colour_places": colour_places,
        "both_finished": both_finished,
        "counted_pawns": {},
        "completed_colours": {str(e): n for e, n in done.items()},
        "game_time": None,
        "count_points": {},
    }


def _open(seats, typed: HandResult) -> dict[str, Any]:
    ids = [s.entry_id for s in seats]
    points = dict(typed.count_points) if typed.count_points is not None else None
    if typed.placings is None and points is None:
        raise coded("hand_placings_or_points", field="placings")
    if points is not None:
        missing = [e for e in ids if e not in points]
        if missing:
            raise coded("hand_points_missing", field="count_points")
        colours = {s.entry_id: len(s.colours) for s in seats}
        for entry, value in points.items():
            if value > COUNT_POINTS_PER_COLOUR * colours[entry]:
                raise coded("hand_points_range", field="count_points", most=COUNT_POINTS_PER_COLOUR)
    if typed.placings is not None:
        placings = list(typed.placings)
        if points is not None:
            _check_order_by(placings, points, "hand_placings_points", "placings")
    else:
        if len(set(points.values())) < len(points):
            raise coded("hand_points_tied", field="placings")
        placings = sorted(ids, key=lambda e: -points[e])
    if typed.winner is not None and typed.winner != placings[0]:
        raise coded("hand_winner_first", field="winner")
    return {
        "winner_id": placings[0],
        "placings": placings,
        "colour_places": [],
        "both_finished": [],
        "counted_pawns": {},
        "completed_colours": {},
        "game_time": None,
        "count_points": {str(k): v for k, v in (points or {}).items()},
    }
