"""The rollout estimates against exact values: in endgames small enough to solve
exactly (value iteration over every reachable state), the estimate lies within its
stated confidence of the exact value. And the exact solver itself on a position whose
value follows by hand."""

from __future__ import annotations

import pytest

from games.engine import Game
from games.engine.analysis.exact import exact_win
from games.engine.analysis.policy import default_policy
from games.engine.analysis.rollout import estimate_options
from games.engine.analysis.stats import wilson_half_width

JUMP = {"preset": "league", "jump_in_goal": True}  # online rules need all four colours

# (positions, colour on turn, rules): one or two pawns per colour left, near the house
ENDGAMES = [
    ({"red": [36, 38, 42, 43], "black": [35, 37, 42, 43]}, "black", "league"),
    ({"red": [36, 41, 42, 43], "black": [35, 41, 42, 43]}, "red", "league"),
    ({"red": [34, 40, 41, 43], "black": [33, 41, 42, 43]}, "black", "classic"),
    ({"red": [37, 38, 42, 43], "yellow": [36, 39, 41, 42]}, "yellow", JUMP),
    (
        {"red": [37, 41, 42, 43], "yellow": [36, 40, 41, 42], "green": [38, 40, 41, 43]},
        "green",
        JUMP,
    ),
    ({"red": [37, 38, 40, 43], "black": [36, 38, 40, 41]}, "red", "league-gp"),
]
ROLLOUTS = 1500
Z_ALL = 3.89  # 99.99 % per check: a correct implementation fails one of them < 0.2 %


def test_exact_solver_on_a_position_worked_out_by_hand() -> None:
    # red needs exactly 4, black exactly 5; a 6 moves nothing but rolls again, so each
    # turn succeeds with 1/5; red first: 1/5 / (1 - (4/5)^2) = 5/9
    g = Game.from_positions(
        {"red": [36, 41, 42, 43], "black": [35, 41, 42, 43]}, turn="red", rules="league"
    )
    value = exact_win(g)
    assert value["red"] == pytest.approx(5 / 9, abs=1e-9)
    assert value["black"] == pytest.approx(4 / 9, abs=1e-9)
    assert exact_win(g, default_policy()) == pytest.approx(value, abs=1e-9)  # moves forced


def test_expectimax_is_at_least_the_policy_for_the_only_chooser() -> None:
    # only red has choices (two pawns); black's single pawn is forced
    g = Game.from_positions(
        {"red": [30, 33, 42, 43], "black": [36, 41, 42, 43]}, turn="red", rules=JUMP
    )
    best = exact_win(g)["red"]
    assert best >= exact_win(g, default_policy())["red"] - 1e-12


@pytest.mark.parametrize("case", range(len(ENDGAMES)))
def test_rollout_estimate_is_within_its_confidence_of_the_exact_value(case: int) -> None:
    positions, turn, rules = ENDGAMES[case]
    g = Game.from_positions(positions, turn=turn, rules=rules)
    policy = default_policy()
    exact = exact_win(g, policy)
    est = estimate_options([g], ROLLOUTS, seed=case, decision=0, policy=policy)[0]
    shares = est.shares(list(exact))
    for player, value in exact.items():
        hw = wilson_half_width(shares[player] * ROLLOUTS, ROLLOUTS, z=Z_ALL)
        assert abs(shares[player] - value) <= hw, (player, shares[player], value, hw)


def test_the_stated_95_percent_interval_covers_the_exact_value_about_95_percent() -> None:
    positions, turn, rules = ENDGAMES[0]
    g = Game.from_positions(positions, turn=turn, rules=rules)
    policy = default_policy()
    exact = exact_win(g, policy)["red"]
    n, runs = 200, 40
    covered = 0
    for seed in range(runs):
        est = estimate_options([g], n, seed=seed, decision=0, policy=policy)[0]
        share = est.shares(["red"])["red"]
        covered += abs(share - exact) <= wilson_half_width(share * n, n)
    # binomial(40, 0.95): P(covered < 33) ≈ 0.1 %; a too narrow interval (or biased
    # rollouts) fails this
    assert covered >= 33, covered
