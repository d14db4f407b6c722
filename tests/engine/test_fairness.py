"""Dice fairness (games/engine/fairness.py): the counts, the chi-square statistic and its
exact 5-degrees-of-freedom p-value, checked by hand, against table values, against a
numerical integral of the density, and by hypothesis properties."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.fairness import (
    MIN_ROLLS,
    chi_square_sf_5,
    combine,
    fairness,
    roll_counts,
)
from tests.examples import example, example_text

counts6 = st.lists(st.integers(min_value=0, max_value=10_000), min_size=6, max_size=6)


def density_5(x: float) -> float:
    """The chi-square density with 5 degrees of freedom: x^(3/2) e^(-x/2) / (2^(5/2) Γ(5/2))."""
    return x**1.5 * math.exp(-x / 2) / (2**2.5 * math.gamma(2.5))


def integral_cdf(x: float, steps: int = 4000) -> float:
    """P(X <= x) by Simpson's rule over the density (an independent route to the p-value)."""
    h = x / steps
    total = density_5(0) + density_5(x)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * density_5(i * h)
    return total * h / 3


def test_a_hand_computed_case():
    # 60 rolls, expected 10 each: (20-10)²/10 + 4·0 + (0-10)²/10 = 20
    result = fairness([20, 10, 10, 10, 10, 0])
    assert result.rolls == 60 and result.expected == 10
    assert result.chi_square == pytest.approx(20.0)
    by_hand = math.erfc(math.sqrt(10)) + math.sqrt(2 / math.pi) * math.exp(-10) * (
        math.sqrt(20) + 20**1.5 / 3
    )
    assert result.p_value == pytest.approx(by_hand)
    assert result.p_value == pytest.approx(0.0012497, rel=1e-3)  # printed chi-square tables


@pytest.mark.parametrize(
    "x, p", [(1.1455, 0.95), (4.3515, 0.50), (9.2364, 0.10), (11.0705, 0.05), (15.0863, 0.01)]
)
def test_table_quantiles(x, p):
    assert chi_square_sf_5(x) == pytest.approx(p, abs=2e-4)


def test_a_perfectly_even_die_and_no_rolls():
    assert fairness([7] * 6).chi_square == 0 and fairness([7] * 6).p_value == 1.0
    empty = fairness([0] * 6)
    assert empty.rolls == 0 and empty.p_value == 1.0 and not empty.enough


@given(st.floats(min_value=0.01, max_value=40))
def test_the_closed_form_matches_the_integral_of_the_density(x):
    assert chi_square_sf_5(x) == pytest.approx(1 - integral_cdf(x), abs=1e-6)


@given(counts6)
def test_counts_sum_to_the_rolls_and_p_is_a_probability(counts):
    result = fairness(counts)
    assert result.rolls == sum(counts)
    assert result.chi_square >= 0
    assert 0.0 <= result.p_value <= 1.0
    assert result.enough == (sum(counts) >= MIN_ROLLS)


@given(counts6, st.permutations(range(6)))
def test_the_statistic_ignores_which_face_is_which(counts, order):
    assert fairness(counts).chi_square == pytest.approx(
        fairness([counts[i] for i in order]).chi_square
    )


@given(st.floats(min_value=0, max_value=200), st.floats(min_value=0, max_value=200))
def test_the_p_value_falls_as_the_statistic_grows(a, b):
    low, high = sorted((a, b))
    assert chi_square_sf_5(high) <= chi_square_sf_5(low) + 1e-12


@settings(deadline=None)  # 6,000 rolls: over hypothesis' 200 ms under a loaded machine
@given(st.integers(min_value=0, max_value=2**32))
def test_a_heavily_loaded_die_gives_a_tiny_p_over_many_rolls(seed):
    rng = random.Random(seed)
    # a six half the time: 6,000 rolls
    rolls = [6 if rng.random() < 0.5 else rng.randint(1, 5) for _ in range(6000)]
    counts = [rolls.count(face) for face in range(1, 7)]
    assert fairness(counts).p_value < 1e-12


def test_a_fair_die_is_rarely_rejected():
    rng = random.Random(7)
    rejected = 0
    for _ in range(400):
        counts = [0] * 6
        for _ in range(600):
            counts[rng.randrange(6)] += 1
        rejected += fairness(counts).p_value < 0.05
    # about 5 % by design: 20 of 400, binomial sd ≈ 4.4
    assert 5 <= rejected <= 40


def test_bad_counts_are_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="6 faces"):
        fairness([1, 2, 3])
    with pytest.raises(ValueError, match="whole numbers"):
        fairness([1, 2, 3, 4, 5, -1])


def test_roll_counts_of_a_log_split_by_colour_and_player():
    log = example()  # erin: black+yellow, carol: green+red
    counts = roll_counts(log)
    assert sum(counts.total) == len(log["events"])
    assert combine(counts.colours.values()) == counts.total
    for player, held in log["players"].items():
        assert counts.players[player] == combine(counts.colours.get(c, (0,) * 6) for c in held)
    assert combine(counts.players.values()) == counts.total
    assert roll_counts(example_text()) == counts  # from the text too


def test_a_log_with_a_bad_die_is_refused():
    log = {"players": {"a": ["red"]}, "events": [{"colour": "red", "die": 7}]}
    with pytest.raises(ValueError, match="event 0"):
        roll_counts(json.dumps(log))
    with pytest.raises(ValueError, match="events list"):
        roll_counts({"players": {}})
