"""Per-game, per-player luck: how much the dice moved a player's chances, against
how much the choices did; sixes and capture chances against their expectation.

**Win-probability decomposition.** The graph has a point before the first event
(the start position's estimate, ``P_0``), one after each decision ``e_i`` (the
played option's estimate, ``P(played_i)``) and, for a finished game, the result
(1 for the winner, 0 for the others). For a player X, the change from one point to
the next splits at the *best* option of decision ``e_i`` (best for its mover):

    P_X(played_i) − P_X(played_{i−1})
        = [P_X(best_i) − P_X(played_{i−1})]     dice: the rolls since the last point,
                                                 met with the best reply
        + [P_X(played_i) − P_X(best_i)]         the mover's choice at e_i

Summed over the game: ``dice`` (every first bracket, and the last stretch from the
last decision to the result, which has only forced moves), ``own_choices`` (second
brackets of X's own decisions: minus X's losses, ≤ 0) and ``others_choices`` (second
brackets of the other players' decisions, as they affected X). They add up exactly
to ``end − start``. The estimates carry rollout noise, so ``dice`` includes it.

**Sixes.** ``rolls`` (all rolls of X's colours), ``sixes``, ``sixes_expected`` =
rolls / 6 and the z-score (sixes − rolls/6) / √(rolls · 5/36).

**Captures.** For every roll of X's colours, the share of the six die values whose
legal moves include a capture of a pawn not held by X (``capture_chances_expected``
is the sum of those shares); ``capture_chances`` counts the rolls whose actual value
offered one; ``captures`` the captures X made of such pawns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..game import Game
from ..moves import RawMove


def capture_offers(game: Game, seat: int) -> tuple[bool, ...]:
    """For each die value 1–6: whether ``seat``'s legal moves include a capture of a
    pawn not held by its player (``game`` is the state before the roll)."""
    mine = game.setup.players[game.setup.player_of(seat)]
    return tuple(
        any(m[3] >= 0 and m[3] not in mine for m in game.legal(seat, n)) for n in range(1, 7)
    )


def capture_stats(
    game0: Game,
    rolls: Sequence[tuple[int, int, RawMove | None, tuple[bool, ...]]],
    players: Sequence[str],
) -> dict[str, dict[str, float]]:
    """Sixes and capture chances per player from the walk's rolls
    (seat, die, move played, :func:`capture_offers` before the roll)."""
    setup = game0.setup
    out = {
        p: {
            "rolls": 0,
            "sixes": 0,
            "captures": 0,
            "capture_chances": 0,
            "capture_chances_expected": 0.0,
        }
        for p in players
    }
    for c, die, move, offers in rolls:
        player = setup.player_of(c)
        row = out[player]
        row["rolls"] += 1
        row["sixes"] += die == 6
        row["capture_chances_expected"] += sum(offers) / 6
        row["capture_chances"] += offers[die - 1]
        if move is not None and move[3] >= 0 and move[3] not in setup.players[player]:
            row["captures"] += 1
    return out


def decompose(
    players: Sequence[str],
    start: Mapping[str, float],
    points: Sequence[tuple[str, Mapping[str, float], Mapping[str, float]]],
    end: Mapping[str, float] | None,
) -> dict[str, dict[str, float]]:
    """The win-probability decomposition per player.

    ``points``: per decision (mover's player, p of the best option, p of the played
    option); ``end``: the result (or ``None`` for an unfinished game: the last point).
    """
    out = {p: {"dice": 0.0, "own_choices": 0.0, "others_choices": 0.0} for p in players}
    prev = start
    for mover, best, played in points:
        for x in players:
            out[x]["dice"] += best[x] - prev[x]
            key = "own_choices" if x == mover else "others_choices"
            out[x][key] += played[x] - best[x]
        prev = played
    last = end if end is not None else prev
    for x in players:
        out[x]["dice"] += last[x] - prev[x]
        out[x]["start"] = start[x]
        out[x]["end"] = last[x]
    return out


def luck_summary(
    players: Sequence[str],
    decomposition: Mapping[str, Mapping[str, float]],
    counts: Mapping[str, Mapping[str, float]],
) -> dict[str, dict[str, float]]:
    """The ``luck`` object of each player's summary (rounded)."""
    out = {}
    for p in players:
        d = decomposition[p]
        c = counts[p]
        rolls = c["rolls"]
        expected = rolls / 6
        z = (c["sixes"] - expected) / math.sqrt(rolls * 5 / 36) if rolls else 0.0
        out[p] = {
            "start": round(d["start"], 4),
            "end": round(d["end"], 4),
            "dice": round(d["dice"], 4),
            "own_choices": round(d["own_choices"], 4),
            "others_choices": round(d["others_choices"], 4),
            "rolls": rolls,
            "sixes": c["sixes"],
            "sixes_expected": round(expected, 2),
            "sixes_z": round(z, 2),
            "captures": c["captures"],
            "capture_chances": c["capture_chances"],
            "capture_chances_expected": round(c["capture_chances_expected"], 2),
        }
    return out
