"""A game's mutable state as plain JSON data, and back: what live play stores with a room
so that the next move is applied from the stored position in constant time, never by
replaying the game's events.

The setup (board, rules, colours, players, starting colour, variant) is not in the
snapshot: it is what the game was made with (``Game.new``) and never changes. A snapshot
is restored onto a fresh game of the same setup::

    data = game_snapshot(game)              # json.dumps-able
    again = game_restore(Game.new(...same setup...), data)

``again`` is then indistinguishable from ``game`` (the engine's tests play games on from
both and compare every roll).
"""

from __future__ import annotations

from typing import Any

from .game import Game

SNAPSHOT_VERSION = 1

_LISTS = ("track", "tcount", "home", "yard", "capture_counts", "finished")
_ORDERS = ("placings", "home_order")
_SCALARS = ("over", "winner", "events", "turn_seat", "tries", "tries_max", "last_t", "ended_by")


class SnapshotError(ValueError):
    """The snapshot does not fit the game it is restored onto."""


def game_snapshot(game: Game) -> dict[str, Any]:
    """The state of ``game`` that moves change, as JSON-ready data."""
    data: dict[str, Any] = {"v": SNAPSHOT_VERSION, "pawns": [p[:] for p in game.pawns]}
    for name in _LISTS + _ORDERS:
        data[name] = list(getattr(game, name))
    for name in _SCALARS:
        data[name] = getattr(game, name)
    data["prev"] = list(game.prev) if game.prev is not None else None
    return data


def game_restore(game: Game, data: dict[str, Any]) -> Game:
    """``game`` (fresh, of the snapshot's setup) put into the snapshot's state; returned."""
    if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
        raise SnapshotError("not a game snapshot of this engine version")
    pawns = data["pawns"]
    if len(pawns) != len(game.pawns) or len(data["track"]) != len(game.track):
        raise SnapshotError("the snapshot is of another board")
    game.pawns = [list(p) for p in pawns]
    for name in _LISTS + _ORDERS:
        setattr(game, name, list(data[name]))
    for name in _SCALARS:
        setattr(game, name, data[name])
    game.prev = tuple(data["prev"]) if data["prev"] is not None else None
    return game
