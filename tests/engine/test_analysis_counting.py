"""The counting rule of the chances lost (games/engine/analysis/counting.py, issue #37)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.analysis.counting import counted_losses_mw

value = st.floats(min_value=0.0, max_value=1000.0, allow_nan=False)


@st.composite
def decision(draw):
    values = draw(st.lists(value, min_size=2, max_size=4))
    return values, draw(st.integers(0, len(values) - 1)), draw(st.booleans())


decisions = st.lists(decision(), min_size=1, max_size=12)


def raw(d) -> float:
    values, played, _ = d
    return max(values) - values[played]


@settings(max_examples=25, deadline=None)
@given(decisions)
def test_counted_between_zero_and_the_measured_loss(ds):
    out = counted_losses_mw(ds)
    assert len(out) == len(ds)
    assert all(0.0 <= c <= raw(d) for c, d in zip(out, ds, strict=True))


@settings(max_examples=20, deadline=None)
@given(decisions, st.data())
def test_monotone_in_the_measured_loss(ds, data):
    """Lowering the played option's value (a larger measured loss, the rest of the game
    alike) never lowers what that decision counts."""
    i = data.draw(st.integers(0, len(ds) - 1))
    values, played, end = ds[i]
    more = data.draw(st.floats(min_value=0.5, max_value=300.0))
    worse = list(values)
    worse[played] -= more
    before = counted_losses_mw(ds)[i]
    after = counted_losses_mw([*ds[:i], (worse, played, end), *ds[i + 1 :]])[i]
    assert after >= before - 1e-6


@settings(max_examples=15, deadline=None)
@given(decisions, st.floats(min_value=-200.0, max_value=200.0))
def test_deterministic_and_shift_free(ds, shift):
    """The same input gives the same output; a constant added to one decision's values
    changes nothing (only differences matter)."""
    assert counted_losses_mw(ds) == counted_losses_mw(list(ds))
    moved = [([x + shift for x in v], p, e) for v, p, e in ds]
    assert counted_losses_mw(moved) == pytest.approx(counted_losses_mw(ds), abs=1e-6)


def test_best_moves_count_nothing():
    ds = [([500.0, 480.0, 470.0], 0, False)] * 10
    assert counted_losses_mw(ds) == [0.0] * 10
    assert counted_losses_mw([]) == []


def test_a_random_mover_counts_nearly_in_full_a_steady_player_shrinks():
    """The same 15 mw loss: among many others' like it (a player choosing at random) it
    counts nearly in full; once among 29 best moves (a steady player) it shrinks."""
    close = ([500.0, 485.0], 1, False)  # played the 15 mw worse option
    best = ([500.0, 485.0], 0, False)
    random_mover = [close if i % 2 else best for i in range(30)]
    steady = [close] + [best] * 29
    r = counted_losses_mw(random_mover)
    s = counted_losses_mw(steady)
    assert r[1] > 0.8 * 15.0
    assert s[0] < 0.5 * 15.0
    # a clear loss counts about in full even for a steady player
    clear = ([500.0, 380.0], 1, False)
    assert counted_losses_mw([clear] + [best] * 29)[0] > 0.85 * 120.0


def test_endgame_error_is_larger():
    """In a race endgame (option error 25 mw) the same close call shrinks more."""
    best = ([500.0, 470.0], 0, False)
    ordinary = counted_losses_mw([([500.0, 470.0], 1, False)] + [best] * 20)[0]
    endgame = counted_losses_mw([([500.0, 470.0], 1, True)] + [best] * 20)[0]
    assert endgame < ordinary
