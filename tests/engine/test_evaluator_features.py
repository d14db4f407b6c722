"""The evaluator's features of session 12: who rolls before a threatened pawn's colour, and
the heuristic's worth at risk; a 35-feature model gets generation 1's rows unchanged."""

from __future__ import annotations

import pytest

from games.engine import Game
from games.engine.evaluator.features import N_FEATURES, N_GENERATION_1, NAMES, rows

COL = {name: i for i, name in enumerate(NAMES)}


def _red_chased_by_black(turn: str) -> Game:
    """Red's pawn on its field 15 (absolute 15), black's 3 fields behind it (absolute 12),
    the other pawns in the yards."""
    return Game.from_positions(
        {
            "red": [15, "B", "B", "B"],
            "black": [2, "B", "B", "B"],
            "yellow": ["B"] * 4,
            "green": ["B"] * 4,
        },
        turn=turn,
    )


@pytest.mark.parametrize(
    ("turn", "next_", "soon"),
    [("black", 1, 1), ("yellow", 0, 0), ("green", 0, 0), ("red", 0, 0)],
)
def test_a_chased_pawn_is_in_danger_only_when_the_chaser_rolls_first(turn, next_, soon):
    red = rows(_red_chased_by_black(turn))[0]
    assert red[COL["exposed"]] == 0.25  # the old count does not depend on the turn
    assert red[COL["exposed_next"]] == next_ / 4
    assert red[COL["exposed_soon"]] == soon / 4
    assert red[COL["exposed_next_worth"]] == pytest.approx(next_ * 15 / 40 / 4)
    # worth at risk: black 3 behind (a tenth) and red 5 past black's free field A with
    # black's yard pawns (a 6, then a 5), by the heuristic's own rule
    worth = 10 / 40 + (15 / 40) ** 2
    risk = 1 - 0.9 * 35 / 36
    assert red[COL["worth"]] == pytest.approx(worth / 4)
    assert red[COL["risk_value"]] == pytest.approx(worth * risk / 4)


def test_black_on_turn_threatens_and_red_does_not_threaten_back():
    g = _red_chased_by_black("black")
    red, black = rows(g)[:2]
    assert black[COL["threat_value"]] == pytest.approx((10 / 40 + (15 / 40) ** 2) / 6 / 4)
    assert red[COL["threat_value"]] == 0.0


def test_a_generation_1_model_gets_the_first_35_features_unchanged():
    g = _red_chased_by_black("yellow")
    full, short = rows(g), rows(g, None, N_GENERATION_1)
    assert all(len(r) == N_FEATURES for r in full)
    assert all(len(r) == N_GENERATION_1 for r in short)
    assert [r[:N_GENERATION_1] for r in full] == short
