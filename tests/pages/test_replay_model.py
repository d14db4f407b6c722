"""The replay read model and the log statistics, read from the engine's steps: tries and
captures as the engine counts them, the start position."""

from __future__ import annotations

import json

import pytest

from games.engine import replay, validate
from games.replay import replay_data, replay_steps
from games.stats import log_stats
from tests.builders import example_text

VALID = ["valid-league.json", "valid-classic-huff.json", "valid-classic-neutral.json"]


@pytest.mark.parametrize("name", VALID)
def test_statistics_agree_with_the_validator(name):
    text = example_text(name)
    stats = log_stats(text)
    result = validate(text)
    colours = json.loads(text).get("colours") or ["red", "black", "yellow", "green"]
    for seat, row in stats.items():
        assert row["captures"] == result["captures"][colours[seat]]
    assert sum(row["rolls"] for row in stats.values()) == result["events"]
    assert sum(row["captured"] for row in stats.values()) == sum(result["captures"].values())


def test_tries_and_captures_come_from_the_engine():
    text = example_text("valid-league.json")
    model = replay_steps(text)
    steps = list(replay(text))
    assert [s["try"] for s in model["steps"]] == [list(s.attempt) for s in steps]
    seat_of = {c: s for s, c in enumerate(model["colours"])}
    assert [s["move"] and s["move"]["captures"] for s in model["steps"]] == [
        None if s.captured is None else seat_of[s.captured[0]] for s in steps
    ]


def test_the_start_position_of_a_one_pawn_out_game():
    data = replay_data(example_text("valid-classic.json"))
    assert all(0 in pawns for pawns in data["start"])  # a pawn of every colour on field A
    assert "try" not in data["steps"][0]  # classic has no three tries
    data = replay_data(example_text("valid-league.json"))
    assert all(pawns == [-1] * 4 for pawns in data["start"])
    assert data["steps"][0]["try"] == [1, 3]
