"""Statistics of a game log per seat: rolls, sixes, moves, captures made and suffered, huffs.

Read straight from the rules engine's replay steps (no board drawing, no sentences), cached
by the log's SHA-256 under :func:`stats_cache_key`, so the selectors can look many logs'
statistics up at once without loading their texts.
"""

from __future__ import annotations

from games.engine import replay_log
from games.logcache import cache_key, cached

Stats = dict[int, dict[str, int]]


def stats_cache_key(sha256: str) -> str:
    """Cache key of :func:`log_stats` for the log with that SHA-256 (``GameLog.sha256``), so
    callers can look statistics up without loading the log's text."""
    return cache_key(STATS_KIND, sha256)


#: the cache generation of the statistics (v2: ``faces``, how often each face 1–6 came up)
STATS_KIND = "stats-v2"


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
    others), ``huffed``. Cached by the log's hash.
    Raises the engine's ``InvalidLog`` (a ``ValueError``) for a log it refuses."""
    raw = cached(STATS_KIND, text, lambda: _build(text))
    return {int(k): v for k, v in raw.items()}
