"""The rollouts' dice: faces 1-6 with equal chances, reproducible (also when a stream is
extended), one independent stream per seat, and the same dice for every option."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.analysis.dice import CHUNK, dice_for


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(-1, 50_000), st.integers(0, 10_000))
def test_streams_are_reproducible_and_extend_alike(seed: int, decision: int, k: int) -> None:
    a = dice_for(seed, decision, k, 4)
    b = dice_for(seed, decision, k, 4)
    assert [d.buf for d in a] == [d.buf for d in b]
    a[2].extend()
    b[2].extend()
    b[2].extend()
    assert len(a[2].buf) == 2 * CHUNK
    assert b[2].buf[: 2 * CHUNK] == a[2].buf  # extending twice starts like extending once
    assert set(a[2].buf) <= set(range(1, 7))
    assert len({bytes(d.buf[:CHUNK]) for d in a}) == 4  # the seats differ


def test_faces_are_uniform() -> None:
    counts: Counter[int] = Counter()
    for k in range(200):
        for stream in dice_for(7, 3, k, 4):
            counts.update(stream.extend())
    n = sum(counts.values())
    assert set(counts) == set(range(1, 7))
    chi2 = sum((counts[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom: P(> 20.5) = 0.001
