"""Common random numbers: the future dice of rollout ``k``, the same for every option.

Rollout ``k`` of every option of one decision reads its rolls from the same
:class:`DiceStream` (seeded by ``(seed, decision, k)``), so two options are compared
on identical luck and the difference of their estimates has a small variance.
Dice are drawn as random bytes, the values 252–255 thrown away (so every face has
probability exactly 1/6) and the rest mapped to 1–6 with one ``bytes.translate``.
"""

from __future__ import annotations

import random

_FACES = bytes(b % 6 + 1 for b in range(256))
_REJECT = bytes(range(252, 256))
CHUNK = 1024
"""Dice drawn at a time (a league game from its start needs about 600–900)."""


def stream_seed(seed: int, decision: int, k: int) -> int:
    """The generator seed of rollout ``k`` at ``decision`` (``-1``: the start position)."""
    return ((seed * 100_003 + decision + 1) << 20) + k


class DiceStream:
    """An endless, reproducible die sequence: ``stream[i]`` is the i-th roll (1–6)."""

    __slots__ = ("_rng", "buf")

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.buf = bytearray()
        self.extend()

    def extend(self) -> bytearray:
        """Draw another chunk; returns the (longer) buffer."""
        while True:
            raw = self._rng.randbytes(CHUNK + CHUNK // 32).translate(_FACES, _REJECT)
            if len(raw) >= CHUNK:
                self.buf += raw[:CHUNK]
                return self.buf
