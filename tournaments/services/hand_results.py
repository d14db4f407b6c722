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
from collections import Counter
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
    _check_recorded(fixture.game_format, kind, typed)
    _check_entries(typed, [s.entry_id for s in seats])
    return READERS[kind](seats, typed)


def _check_recorded(game_format: str, kind: str, typed: HandResult) -> None:
    """Only the fields the format records may be given."""
    extra = typed.given() - FIELDS[kind]
    if not extra:
        return
    name = sorted(extra)[0]
    raise coded(
        "hand_field_not_recorded",
        field=name,
        format=get_format(game_format).label,
        given=name,
        recorded=", ".join(sorted(FIELDS[kind])),
    )


def _check_entries(typed: HandResult, ids: list[int]) -> None:
    """Every player named is at the board; numbers per player are whole and at least 0;
    placings name everyone once."""
    for name in ("counted_pawns", "completed_colours", "count_points"):
        _check_entry_map(name, getattr(typed, name), ids)
    if typed.winner is not None and typed.winner not in ids:
        raise coded("hand_winner_not_here", field="winner")
    if typed.placings is not None:
        _check_placings(typed.placings, ids)


def _check_entry_map(name: str, value: Mapping[int, int] | None, ids: list[int]) -> None:
    for key, number in (value or {}).items():
        if key not in ids:
            raise coded("hand_entry_not_here", field=name, given=name, entry=key)
        if not _whole(number):
            raise coded("hand_whole_numbers", field=name, given=name)


def _whole(number) -> bool:
    """A whole number of at least 0 (not a truth value)."""
    return isinstance(number, int) and not isinstance(number, bool) and number >= 0


def _check_placings(placings: Sequence[int], ids: list[int]) -> None:
    if sorted(placings) != sorted(ids) or len(set(placings)) != len(placings):
        raise coded("hand_placings_everyone", field="placings")


def _fields(**given: Any) -> dict[str, Any]:
    """A result's fields: what a format records, the rest empty."""
    return {
        "winner_id": None,
        "placings": [],
        "colour_places": [],
        "both_finished": [],
        "counted_pawns": {},
        "completed_colours": {},
        "game_time": None,
        "count_points": {},
        **given,
    }


def _by_entry(values: Mapping[int, Any] | None) -> dict[str, Any]:
    """Per-player values keyed as stored (entry ids as strings)."""
    return {str(entry): value for entry, value in (values or {}).items()}


def _check_winner(typed: HandResult, first: int, refusal: str) -> None:
    """A winner given must be the player placed first (else ``refusal``)."""
    if typed.winner is not None and typed.winner != first:
        raise coded(refusal, field="winner")


def _ranked(players: list[int], values: Mapping[int, int], tied: str) -> list[int]:
    """``players`` from the highest value down; refused (``tied``) when two share one."""
    if len({values[e] for e in players}) < len(players):
        raise coded(tied, field="placings")
    return sorted(players, key=lambda e: -values[e])


def _check_order_by(order: list[int], values: dict[int, int], what: str, field: str) -> None:
    """``what``: the code refusing placings that disagree with ``values``."""
    for better, worse in itertools.pairwise(order):
        if values[better] < values[worse]:
            raise coded(what, field=field)


# --- 2T, 3T (``plus``: 2T+, 3T+) ------------------------------------------------------------


def _threat(seats, typed: HandResult, *, plus: bool) -> dict[str, Any]:
    ids = [s.entry_id for s in seats]
    winner = _winner_given(typed)
    most = MOST_COUNTED_PAWNS[plus]
    counted = _counted_pawns(ids, typed.counted_pawns, winner, most)
    recorded = _threat_plus(ids, typed, counted, winner) if plus else _threat_only(ids, winner)
    return _fields(
        winner_id=winner,
        placings=_threat_placings(ids, typed.placings, winner, counted),
        counted_pawns=_by_entry(counted),
        **recorded,
    )


#: counted pawns of the winner of a 2T/3T game (False) and of a 2T+/3T+ game (True)
MOST_COUNTED_PAWNS = {False: 4, True: 8}


def _winner_given(typed: HandResult) -> int:
    if typed.winner is None:
        raise coded("hand_winner_missing", field="winner")
    return typed.winner


def _threat_only(ids: list[int], winner: int) -> dict[str, Any]:
    """2T/3T: the winner completed their best colour."""
    return {"completed_colours": _by_entry({e: int(e == winner) for e in ids})}


def _threat_plus(ids: list[int], typed: HandResult, counted, winner: int) -> dict[str, Any]:
    """2T+/3T+: the winner finished both colours; the colours each player completed (not
    given: the winner's two, none of the others'), agreeing with the counted pawns; the
    game time, if given."""
    completed = {e: (2 if e == winner else 0) for e in ids}
    completed.update(typed.completed_colours or {})
    _check_completed(completed, counted, winner)
    return {
        "both_finished": [winner],
        "completed_colours": _by_entry(completed),
        "game_time": _game_time(typed.game_time),
    }


def _counted_pawns(ids: list[int], given: Mapping[int, int] | None, winner: int, most: int):
    """Each player's counted pawns (not given: ``most`` for the winner, 0 for the rest):
    from 0 to ``most``, which the winner has and no one else."""
    counted = {e: (given or {}).get(e, most if e == winner else 0) for e in ids}
    _check_counted_pawns(counted, winner, most)
    return counted


def _check_counted_pawns(counted: dict[int, int], winner: int, most: int) -> None:
    if any(n > most for n in counted.values()):
        raise coded("hand_pawns_range", field="counted_pawns", most=most)
    if counted[winner] != most:
        raise coded("hand_winner_pawns", field="counted_pawns", most=most)
    if list(counted.values()).count(most) > 1:
        raise coded("hand_only_winner_pawns", field="counted_pawns", most=most, below=most - 1)


def _game_time(given: float | None) -> float | None:
    if given is None:
        return None
    game_time = float(given)
    if not 0 < game_time <= MAX_GAME_TIME:
        raise coded("hand_time_range", field="game_time", most=MAX_GAME_TIME)
    return game_time


def _threat_placings(ids: list[int], given, winner: int, counted) -> list[int]:
    """The winner first, then as given (agreeing with the counted pawns) or by counted
    pawns (refused when they tie)."""
    if given is not None:
        return _threat_placings_given(list(given), winner, counted)
    others = [e for e in ids if e != winner]
    return [winner, *_ranked(others, counted, "hand_pawns_tied")]


def _threat_placings_given(placings: list[int], winner: int, counted) -> list[int]:
    if placings[0] != winner:
        raise coded("hand_placings_winner", field="placings")
    _check_order_by(placings[1:], counted, "hand_placings_pawns", "placings")
    return placings


#: counted pawns a losing player may have, by the colours they completed: a finished
#: colour has its four pawns home
PAWNS_FOR_DONE = {0: (0, 6), 1: (4, 7)}


def _check_completed(completed: dict[int, int], counted: dict[int, int], winner: int) -> None:
    """Completed colours must agree with the counted pawns: a finished colour has its four
    pawns home; only the winner finished both colours."""
    if completed[winner] != 2:
        raise coded("hand_winner_both", field="completed_colours")
    for entry, done in completed.items():
        if entry != winner:
            _check_loser_completed(done, counted[entry])


def _check_loser_completed(done: int, counted: int) -> None:
    field = "completed_colours"
    if done > 1:
        raise coded("hand_only_winner_both", field=field)
    low, high = PAWNS_FOR_DONE[done]
    if not low <= counted <= high:
        raise coded(
            "hand_pawns_for_done", field=field, done=done, low=low, high=high, counted=counted
        )


# --- Grand Prix ----------------------------------------------------------------------------


def _grand_prix(seats, typed: HandResult) -> dict[str, Any]:
    owner = _colour_owner(seats)
    places = _colour_places(owner, dict(typed.colour_places or {}))
    order = sorted(places, key=places.__getitem__)
    finished, done = _players_finished(owner, order)
    _check_winner(typed, finished[0], "hand_places_winner")
    return _fields(
        winner_id=finished[0],
        placings=finished,
        colour_places=[owner[c] for c in order],
        both_finished=finished,
        completed_colours=_by_entry(done),
    )


def _colour_owner(seats) -> dict[str, int]:
    """Colour → the entry playing it."""
    return {colour: seat.entry_id for seat in seats for colour in seat.colours}


def _colour_places(owner: dict[str, int], places: dict[str, int]) -> dict[str, int]:
    """Every colour at the board placed once, 1 to the number of colours."""
    field = "colour_places"
    if not places:
        raise coded("hand_places_missing", field=field)
    _check_every_colour(owner, places)
    if sorted(places.values()) != list(range(1, len(owner) + 1)):
        raise coded("hand_places_range", field=field, count=len(owner))
    return places


def _check_every_colour(owner: dict[str, int], places: dict[str, int]) -> None:
    """The colours placed are the board's, each of them."""
    _check_known_colours(owner, places)
    if missing := [c for c in owner if c not in places]:
        raise coded("hand_places_give", field="colour_places", colour=missing)


def _check_known_colours(owner: dict[str, int], places: dict[str, int]) -> None:
    for colour in places:
        if colour not in owner:
            raise coded("hand_colour_unknown", field="colour_places", colour=colour)


def _players_finished(owner: dict[str, int], order: list[str]):
    """The players in the order their last colour finished, and how many colours each
    finished (all of them: every colour is placed)."""
    colours = Counter(owner.values())
    done: Counter[int] = Counter()
    finished = []
    for colour in order:
        done[owner[colour]] += 1
        if done[owner[colour]] == colours[owner[colour]]:
            finished.append(owner[colour])
    return finished, done


# --- open tournaments ----------------------------------------------------------------------


def _open(seats, typed: HandResult) -> dict[str, Any]:
    if typed.placings is None and typed.count_points is None:
        raise coded("hand_placings_or_points", field="placings")
    points = _count_points(seats, typed.count_points)
    placings = _open_placings([s.entry_id for s in seats], typed.placings, points)
    _check_winner(typed, placings[0], "hand_winner_first")
    return _fields(winner_id=placings[0], placings=placings, count_points=_by_entry(points))


def _count_points(seats, given: Mapping[int, int] | None) -> dict[int, int] | None:
    """Everyone's count points, in range."""
    if given is None:
        return None
    points = dict(given)
    for seat in seats:
        if seat.entry_id not in points:
            raise coded("hand_points_missing", field="count_points")
    _check_points_range(seats, points)
    return points


def _check_points_range(seats, points: dict[int, int]) -> None:
    """At most four pawns in the house per colour."""
    for seat in seats:
        if points[seat.entry_id] > COUNT_POINTS_PER_COLOUR * len(seat.colours):
            raise coded("hand_points_range", field="count_points", most=COUNT_POINTS_PER_COLOUR)


def _open_placings(ids: list[int], given, points: dict[int, int] | None) -> list[int]:
    """As given (agreeing with the count points, when given too), or by count points
    (refused when they tie)."""
    if given is None:
        return _ranked(ids, points, "hand_points_tied")
    if points is not None:
        _check_order_by(list(given), points, "hand_placings_points", "placings")
    return list(given)


#: how each kind of format reads what was typed
READERS = {
    "threat": lambda seats, typed: _threat(seats, typed, plus=False),
    "threat-plus": lambda seats, typed: _threat(seats, typed, plus=True),
    "grand-prix": _grand_prix,
    "open": _open,
}
