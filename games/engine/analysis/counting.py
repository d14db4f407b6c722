"""How a player's losses count in the chances lost of a game (issue #37, session 17).

The model's value of each option is off by about ``OPTION_SD_MW`` (``OPTION_SD_ENDGAME_MW``
in a race endgame), so a measured loss — the best option's value minus the played one's —
is partly the model's error, and which part depends on how the player chose: the best of
several noisy values is biased upwards (the winner's curse), and a player whose choices
follow the true values tends to have picked a move the model undervalues.

The rule (:func:`counted_losses_mw`): each option's true value is the model's value plus a
normal error; the player chooses by a softmax of the true values with an unknown
*steadiness* ``β`` (per milli-win; 0: at random). ``β`` is judged from that player's own
decisions in the game — every ``β`` of ``BETAS`` weighed by how likely it makes the moves
the player made — and each decision counts the **expected true loss** of the move played
(best true value minus the played one's) given the values and the player's choices, never
more than the measured loss and never below 0. A random mover's losses count about in
full, a steady player's close calls shrink to what the model can tell apart.

The expectations are Gauss–Hermite sums over each option's error (``NODES`` points per
option, fewer with many options): deterministic (no random numbers; numpy's pairwise sums)
and cheap (a few thousand points a decision). ``OPTION_SD_MW`` was chosen on 150
development games of ``bench/loss_rules.py`` and checked on held-out ones
(docs/analysis.md, "Calibration (issue #37)").
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np
from numpy.polynomial.hermite_e import hermegauss

OPTION_SD_MW = 12.0
"""The error (one standard deviation, mw) of each option's value in an ordinary position:
the measured error of a loss below 30 mw (``LOSS_SD_MW``), taken per option — chosen among
8.5 (that error split over two independent options), 12, 17 and 24 on the development
games as the one that meets both calibration targets with the least shrinkage."""

OPTION_SD_ENDGAME_MW = 25.0
"""The same in a race endgame (``LOSS_SD_ENDGAME_MW``, measured against exact values)."""

BETAS: tuple[float, ...] = (0.0, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
"""The steadiness values weighed (per milli-win: at 0.1 a move 10 mw better is e times as
likely to be chosen; 0 is a random mover)."""

NODES = 7
"""Gauss–Hermite points per option (fewer when ``NODES ** options`` would pass
``MAX_POINTS``)."""

MAX_POINTS = 5000

_BETA = np.array(BETAS)


@functools.lru_cache(maxsize=16)
def _grid(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The standard normal points (``n ** k`` × ``k``) and their weights for ``k`` options."""
    n = NODES
    while n > 2 and n**k > MAX_POINTS:
        n -= 1
    z, w = hermegauss(n)
    w = w / w.sum()
    points = np.array(list(itertools.product(z.tolist(), repeat=k)))
    weights = np.array([float(np.prod(c)) for c in itertools.product(w.tolist(), repeat=k)])
    return points, weights


def _terms(values: Sequence[float], played: int, endgame: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per ``β``: the chance of the move played and the expected true loss times it."""
    v = np.asarray(values, dtype=float)
    points, weights = _grid(len(v))
    sd = OPTION_SD_ENDGAME_MW if endgame else OPTION_SD_MW
    true = v[None, :] + sd * points  # points × options
    top = true.max(axis=1)
    loss = top - true[:, played]
    x = np.exp(_BETA[:, None, None] * (true - top[:, None])[None, :, :])  # β × points × opts
    chance = x[:, :, played] / x.sum(axis=2)
    return (chance * weights).sum(axis=1), (chance * (loss * weights)).sum(axis=1)


def counted_losses_mw(decisions: Sequence[tuple[Sequence[float], int, bool]]) -> list[float]:
    """The losses (mw) of one player's decisions in a game as they count (see the module).

    ``decisions``: per decision the mover's value of each option (mw), the index of the
    move played and whether it was a race endgame. Each result lies between 0 and the
    measured loss (the best value minus the played one's)."""
    if not decisions:
        return []
    terms = [_terms(v, p, e) for v, p, e in decisions]
    chance = np.array([c for c, _ in terms])  # decisions × β
    weighted = np.array([m for _, m in terms])
    log_like = np.log(np.maximum(chance, 1e-300)).sum(axis=0)
    w = np.exp(log_like - log_like.max())
    w = w / w.sum()
    expected = ((weighted / np.maximum(chance, 1e-300)) * w).sum(axis=1)
    out = []
    for (v, p, _e), x in zip(decisions, expected.tolist(), strict=True):
        raw = max(0.0, max(v) - v[p])
        out.append(min(raw, max(0.0, x)))
    return out
