"""The bounds on one analysis (issue #37): an event cap checked before any work and a CPU
deadline checked after every event, both raising ``AnalysisTooLong``; a walk within the
bounds gives exactly the unbounded analysis."""

from __future__ import annotations

import time

import pytest

from games.engine import simulate_game
from games.engine.analysis import AnalysisTooLong, analyse
from tests.engine.stand_in_evaluator import ProgressEvaluator


class SlowEvaluator(ProgressEvaluator):
    """The stand-in model, burning CPU on every call (a deadline must stop it)."""

    def win_chances(self, game):
        end = time.process_time() + 0.002
        while time.process_time() < end:
            pass
        return super().win_chances(game)


@pytest.fixture(scope="module")
def log() -> dict:
    game = simulate_game(rules="league", seed=3)
    game["events"] = game["events"][:60]
    return game


def test_a_log_over_the_event_cap_is_refused_before_any_work(log) -> None:
    model = ProgressEvaluator()
    with pytest.raises(AnalysisTooLong) as caught:
        analyse(log, evaluator=model, max_events=59)
    assert (caught.value.kind, caught.value.events, caught.value.limit) == ("events", 60, 59)
    assert "60 events" in str(caught.value)
    assert model.calls == 0  # nothing was valued


def test_within_the_bounds_the_analysis_is_unchanged(log) -> None:
    plain = analyse(log, evaluator=ProgressEvaluator())
    bounded = analyse(log, evaluator=ProgressEvaluator(), max_events=60, max_cpu_seconds=600)
    plain.pop("seconds"), bounded.pop("seconds")
    assert bounded == plain


def test_the_cpu_deadline_stops_a_long_walk_after_an_event(log) -> None:
    with pytest.raises(AnalysisTooLong) as caught:
        analyse(log, evaluator=SlowEvaluator(), max_cpu_seconds=0.05)
    assert caught.value.kind == "time"
    assert 1 <= caught.value.events < 60  # stopped part-way, not at the end
    assert "CPU seconds" in str(caught.value)
