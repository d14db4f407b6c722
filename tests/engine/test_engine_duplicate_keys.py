"""A JSON object with the same key twice is a malformed log (game-log.md): two JSON readers
would read it differently, so the engine refuses it as a whole, naming the key."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import InvalidLog, replay, simulate_game, validate

HEADER = '{"format": "maedn-log/1", "rules": "league", "first": "red", '


def test_a_header_key_twice_is_malformed() -> None:
    text = HEADER + '"players": {}, "players": {"anna": ["red"]}, "events": []}'
    result = validate(text)
    assert result["valid"] is False and "event" not in result
    assert '"players" twice' in result["error"], result["error"]


@pytest.mark.parametrize(
    ("event", "key"),
    [
        ('{"colour": "red", "die": 1, "die": 6}', "die"),
        ('{"colour": "red", "colour": "black", "die": 1}', "colour"),
        ('{"colour": "red", "die": 1, "t": 1, "t": 0}', "t"),
        ('{"colour": "red", "die": 1, "note": {"a": 1, "a": 2}}', "a"),
    ],
)
def test_a_key_twice_anywhere_is_a_whole_log_defect(event: str, key: str) -> None:
    text = HEADER + '"events": [{"colour": "red", "die": 2}, ' + event + "]}"
    for data in (text, text.encode("utf-8")):
        result = validate(data)
        assert result["valid"] is False and "event" not in result, result
        assert f'"{key}" twice' in result["error"], result["error"]
    with pytest.raises(InvalidLog) as caught:
        list(replay(text))
    assert caught.value.event is None


def test_meta_is_checked_too() -> None:
    text = HEADER + '"events": [], "meta": {"date": "2026-01-01", "date": "2026-01-02"}}'
    assert '"date" twice' in validate(text)["error"]


def test_many_keys_are_named_briefly() -> None:
    keys = ", ".join(f'"k{i}": {i}' for i in range(500))
    text = HEADER + '"events": [], "meta": {' + keys + ', "k7": 0}}'
    error = validate(text)["error"]
    assert '"k7" twice' in error and len(error) < 400


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_real_logs_have_no_duplicate_and_stay_valid(seed: int) -> None:
    text = json.dumps(simulate_game(rules="league", seed=seed, max_events=400))
    assert validate(text)["valid"] is validate(json.loads(text))["valid"]
