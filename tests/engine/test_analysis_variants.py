"""A live room's "Quick" or "First capture" game (``meta.variant``) is analysed as that
variant's game: its options and their equities end by the variant's condition, and the game's
result is the variant's winner. A log that goes on past the variant's end is judged by
the rules alone."""

from __future__ import annotations

import pytest

from games.engine import simulate_game, validate
from games.engine.analysis import analyse
from tests.engine.stand_in_evaluator import ProgressEvaluator

MODEL = ProgressEvaluator()


@pytest.mark.parametrize("variant", ["first-capture", "quick"])
def test_a_variant_game_is_judged_by_its_variant(variant):
    log = simulate_game("online", variant=variant, bots="heuristic", seed=4)
    assert not validate(log)["complete"]  # for the spec the game stops early
    data = analyse(log, evaluator=MODEL)
    assert data["variant"] == variant and data["complete"]
    winner = log["events"][-1].get("pawn_colour", log["events"][-1]["colour"])
    end = data["win_probability"][-1]
    assert end["event"] == len(log["events"]) - 1
    assert end["p"][winner] == 1.0 and sum(end["p"].values()) == 1.0
    without = {**log, "meta": {k: v for k, v in log["meta"].items() if k != "variant"}}
    plain = analyse(without, evaluator=MODEL)
    assert plain["variant"] is None and not plain["complete"]


def test_a_log_that_goes_on_past_the_variants_end_is_judged_by_the_rules():
    log = simulate_game("online", bots="heuristic", seed=4)  # a whole game, captures and all
    log["meta"]["variant"] = "first-capture"
    data = analyse(log, evaluator=MODEL)
    assert data["variant"] is None and data["complete"]
    assert data["win_probability"][-1]["p"][validate(log)["winner"]] == 1.0
