"""Confidence statements for rollout estimates (95 %).

* One option: the share of rollouts the player won is a binomial proportion; its
  interval is Wilson's score interval (it stays inside [0, 1] and keeps its
  coverage near 0 and 1, where the normal interval collapses to a width of 0). The
  reported ``half_width`` is the larger distance from the estimate to either end.
* A difference of two options under common random numbers: rollout ``k`` of both
  used the same dice, so the per-rollout differences ``d_k ∈ {-1, 0, 1}`` are paired;
  the half-width is ``z · sd(d) / √n`` (normal approximation of the paired mean).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

CONFIDENCE = 0.95
Z = 1.959963984540054  # two-sided 95 % quantile of the standard normal


def wilson_interval(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    """Wilson's score interval of ``wins`` out of ``n`` (``(0, 1)`` for no trials)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n))
    return (centre - half, centre + half)


def wilson_half_width(wins: float, n: int, z: float = Z) -> float:
    """Largest distance from ``wins / n`` to the ends of Wilson's interval."""
    if n <= 0:
        return 1.0
    p = wins / n
    lo, hi = wilson_interval(wins, n, z)
    return max(hi - p, p - lo)


def paired_half_width(a: Sequence[float], b: Sequence[float], z: float = Z) -> float:
    """Half-width of the interval for ``mean(a) - mean(b)`` with ``a[k]``, ``b[k]`` paired."""
    n = len(a)
    if n < 2:
        return 1.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return z * math.sqrt(var / n)
