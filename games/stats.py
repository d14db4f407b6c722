"""Statistics of a game log per seat: rolls, sixes, moves, captures made and suffered, huffs.

Read straight from the rules engine's replay steps (no board drawing, no sentences), and
stored with the log when it is stored (:func:`stored_columns`: ``GameLog.seat_faces`` and
``GameLog.seat_stats``), so the dice and player pages add them up without reading any
log's text.
"""

from __future__ import annotations

from games.engine import replay_log

Stats = dict[int, dict[str, int]]

#: what ``GameLog.seat_stats`` holds per seat (rolls and sixes come from ``seat_faces``)
TALLIES = ("moves", "captures", "captured", "huffed")


def _build(text: str) -> Stats:
    setup, _start, steps = replay_log(text)
    seat_of = {name: s for s, name in enumerate(setup.colours)}
    stats = {
        s: {
            "rolls": 0,
            "sixes": 0,
            "moves": 0,
            "captures": 0,
            "captured": 0,
            "huffed": 0,
            "faces": [0] * 6,
        }
        for s in setup.used
    }
    for step in steps:
        row = stats[seat_of[step.colour]]
        row["rolls"] += 1
        row["sixes"] += step.die == 6
        row["faces"][step.die - 1] += 1
        move = step.move
        if move is None:
            continue
        row["moves"] += 1
        if step.captured is not None:
            row["captures"] += 1
            stats[seat_of[step.captured[0]]]["captured"] += 1
        if move.huff is not None:
            row["huffed"] += 1
    return stats


def log_stats(text: str) -> Stats:
    """Per seat (int): ``rolls``, ``sixes``, ``faces`` (the count of each face 1–6),
    ``moves``, ``captures`` (made on its turns), ``captured`` (its pawns sent back by
    others), ``huffed``.
    Raises the engine's ``InvalidLog`` (a ``ValueError``) for a log it refuses."""
    return _build(text)


def seat_tallies(stats: Stats) -> dict[str, dict[str, int]]:
    """Board seat (0-based, as text) → its :data:`TALLIES` of :func:`log_stats`: what
    ``GameLog.seat_stats`` stores."""
    return {str(s): {k: row[k] for k in TALLIES} for s, row in stats.items()}


def stored_columns(text: str) -> dict[str, dict]:
    """The per-seat statistics a stored log keeps, from one replay: ``seat_faces`` (board
    seat as text → how often each face 1–6 came up in its rolls) and ``seat_stats``
    (:func:`seat_tallies`). Raises as :func:`log_stats`."""
    stats = log_stats(text)
    return {
        "seat_faces": {str(s): row["faces"] for s, row in stats.items() if row["rolls"]},
        "seat_stats": seat_tallies(stats),
    }
