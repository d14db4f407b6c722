"""Common random numbers: the future dice of rollout ``k``, the same for every option.

Rollout ``k`` of every option of one decision reads its rolls from the same streams,
one per seat (seeded by ``(seed, decision, k, seat)``): a colour's j-th roll is the
same in every option, however the turns run. Dice are drawn as random bytes, the
values 252–255 thrown away (so every face has probability exactly 1/6) and the rest
mapped to 1–6 with one ``bytes.translate``.
"""

from __future__ import annotations

import random

_FACES = bytes(b % 6 + 1 for b in range(256))
_REJECT = bytes(range(252, 256))
CHUNK = 256
"""Dice per seat drawn at a time (a rollout from a league game's start needs ~125 per
colour; a stream is extended by another chunk when it runs out)."""


def stream_seed(seed: int, decision: int, k: int) -> int:
    """The generator seed of rollout ``k`` at ``decision`` (``-1``: the start position)."""
    return ((seed * 100_003 + decision + 1) << 20) + k


def _draw(rng: random.Random, n: int) -> bytes:
    """``n`` dice from ``rng``."""
    out = b""
    while len(out) < n:
        out += rng.randbytes(n + n // 32 + 8).translate(_FACES, _REJECT)
    return out[:n]


class DiceStream:
    """An endless, reproducible die sequence of one seat: ``buf[i]`` is its i-th roll."""

    __slots__ = ("_seed", "buf")

    def __init__(self, seed: int, first: bytes) -> None:
        self._seed = seed
        self.buf = bytearray(first)

    def extend(self) -> bytearray:
        """Another chunk (from the stream's own generator); returns the longer buffer."""
        rng = random.Random(self._seed * 1_000_003 + len(self.buf))
        self.buf += _draw(rng, CHUNK)
        return self.buf


def dice_for(seed: int, decision: int, k: int, seats: int) -> list[DiceStream]:
    """The dice of rollout ``k`` at ``decision``: one stream per seat (the first chunk
    of every seat from one generator, extensions from each stream's own)."""
    base = stream_seed(seed, decision, k)
    first = _draw(random.Random(base), CHUNK * seats)
    return [DiceStream(base * 8 + s, first[s * CHUNK : (s + 1) * CHUNK]) for s in range(seats)]
