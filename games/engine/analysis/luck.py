"""Per-game, per-player luck: how much the dice moved a player's chances, against how
much the choices did; sixes and capture chances against their expectation.

**The luck split** (from the rolls of :func:`.decisions.walk`, every vector a player's
equity from the same evaluator). For every roll ``t`` and every player X:

    luck_t   = best_t − before_t     the roll: the equity after it, met with the best
                                     move, minus the equity before it
    skill_t  = played_t − best_t     the choice: the move played against the best one

``before_t`` is the equity of the position before the roll, which with one ply of search
*is* the expected equity over the six rolls of the colour on turn (each met with its best
move, judged by the evaluator one ply deeper; see :mod:`.equity`). ``played_t`` is the
next roll's ``before``, so per player the sum telescopes exactly:

    start + Σ luck + Σ own skill + Σ others' skill = end

where *own skill* sums X's own decisions (never positive: the best is the maximum for the
mover), *others' skill* the other players' decisions as they moved X's chances, and
``end`` is the result (1 for the winner, 0 for the others) of a finished game, else the
equity after the last event. Every vector is a distribution over the players, so at every
roll the players' luck sums to zero (and so does the skill).

The **luck-adjusted result** is ``end − Σ luck = start + Σ own skill + Σ others' skill``:
what the game was worth for X with the dice's effect taken out.

**Its two parts.** ``luck = luck_dice + lookahead``: ``luck_dice`` sums ``best_t −
expected_t``, where ``expected_t`` is the expected equity over the six rolls with every
best move valued as the options are — the issue's definition, zero on average over the
six rolls by construction; ``lookahead`` sums ``expected_t − before_t``, the model
changing its mind when it looks one roll further (0 for a perfect model).

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
from typing import Any

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
    players: Sequence[str], start: Sequence[float], rolls: Sequence[Any]
) -> dict[str, dict[str, float]]:
    """The luck split per player (full precision): ``start``, ``luck``, ``own_skill``,
    ``others_skill``, ``end`` and ``luck_adjusted``, from the walk's rolls (each with
    ``player``, ``before``, ``best``, ``played``)."""
    k = len(players)
    luck = [0.0] * k
    dice = [0.0] * k
    own = [0.0] * k
    others = [0.0] * k
    end = list(start)
    for r in rolls:
        mover = players.index(r.player)
        expected = r.expected if r.expected is not None else r.before
        for x in range(k):
            luck[x] += r.best[x] - r.before[x]
            dice[x] += r.best[x] - expected[x]
            skill = r.played[x] - r.best[x]
            if x == mover:
                own[x] += skill
            else:
                others[x] += skill
        end = list(r.played)
    return {
        p: {
            "start": start[x],
            "luck": luck[x],
            "luck_dice": dice[x],
            "lookahead": luck[x] - dice[x],
            "own_skill": own[x],
            "others_skill": others[x],
            "end": end[x],
            "luck_adjusted": end[x] - luck[x],
        }
        for x, p in enumerate(players)
    }


def luck_summary(
    players: Sequence[str],
    decomposition: Mapping[str, Mapping[str, float]],
    counts: Mapping[str, Mapping[str, float]],
) -> dict[str, dict[str, float]]:
    """The ``luck`` object of each player's summary: the split at full precision (so the
    identity can be checked on the JSON), the counts, the z-score rounded."""
    out = {}
    for p in players:
        c = counts[p]
        rolls = c["rolls"]
        expected = rolls / 6
        z = (c["sixes"] - expected) / math.sqrt(rolls * 5 / 36) if rolls else 0.0
        out[p] = {
            **{k: float(v) for k, v in decomposition[p].items()},
            "rolls": rolls,
            "sixes": c["sixes"],
            "sixes_expected": round(expected, 2),
            "sixes_z": round(z, 2),
            "captures": c["captures"],
            "capture_chances": c["capture_chances"],
            "capture_chances_expected": round(c["capture_chances_expected"], 2),
        }
    return out
