"""Statistics of a game log per seat: rolls, sixes, moves, captures made and suffered, huffs.

Read straight from the rules engine's replay steps (no board drawing, no sentences), and
stored with the log when it is stored (:func:`stored_columns`: ``GameLog.seat_faces`` and
``GameLog.seat_stats``), so the dice and player pages add them up without reading any
log's text.
"""

from __future__ import annotations

from games.engine import replay_turns

Stats = dict[int, dict[str, int]]

#: what ``GameLog.seat_stats`` holds per seat (rolls and sixes come from ``seat_faces``)
TALLIES = ("moves", "captures", "captured", "huffed")


def _build(log: object) -> Stats:
    setup, turns = replay_turns(log)
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
    # the turns alone, not every step's board: a fifth of the replay's cost (issue 31)
    for turn in turns:
        row = stats[seat_of[turn.colour]]
        row["rolls"] += 1
        row["sixes"] += turn.die == 6
        row["faces"][turn.die - 1] += 1
        move = turn.move
        if move is None:
            continue
        row["moves"] += 1
        if turn.captured is not None:
            row["captures"] += 1
            stats[seat_of[turn.captured[0]]]["captured"] += 1
        if move.huff is not None:
            row["huffed"] += 1
    return stats


def log_stats(log: object) -> Stats:
    """Of a log (its text, or the dict it parses to), per seat (int): ``rolls``,
    ``sixes``, ``faces`` (the count of each face 1–6), ``moves``, ``captures`` (made on its
    turns), ``captured`` (its pawns sent back by others), ``huffed``.
    Raises the engine's ``InvalidLog`` (a ``ValueError``) for a log it refuses."""
    return _build(log)


def seat_tallies(stats: Stats) -> dict[str, dict[str, int]]:
    """Board seat (0-based, as text) → its :data:`TALLIES` of :func:`log_stats`: what
    ``GameLog.seat_stats`` stores."""
    return {str(s): {k: row[k] for k in TALLIES} for s, row in stats.items()}


def stored_columns(log: object) -> dict[str, dict]:
    """The per-seat statistics a stored log keeps (of its text, or the dict it parses to:
    an upload passes the one its validation read, so the text is parsed once), from one
    replay: ``seat_faces`` (board
    seat as text → how often each face 1–6 came up in its rolls) and ``seat_stats``
    (:func:`seat_tallies`). Raises as :func:`log_stats`."""
    stats = log_stats(log)
    return {
        "seat_faces": {str(s): row["faces"] for s, row in stats.items() if row["rolls"]},
        "seat_stats": seat_tallies(stats),
    }
