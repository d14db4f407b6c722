"""The public example logs in ../shared/examples against expected.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import outcome, replay, validate
from games.engine.log import InvalidLog
from tests.examples import EXAMPLES


def _expected() -> list[dict]:
    path = EXAMPLES / "expected.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


EXPECTED = _expected()


def test_every_example_file_has_an_expectation(examples_dir: Path) -> None:
    listed = {e["file"] for e in EXPECTED}
    on_disk = {p.name for p in examples_dir.glob("*.json")}
    assert listed == on_disk


@pytest.mark.parametrize("expected", EXPECTED, ids=[e["file"] for e in EXPECTED])
def test_example(expected: dict, examples_dir: Path) -> None:
    data = (examples_dir / expected["file"]).read_bytes()
    result = validate(data)
    assert result["valid"] is expected["valid"], result
    assert result.get("event") == expected["event"], result
    if expected["valid"]:
        assert result["complete"] is expected["complete"]
        assert result["placings"] == expected["placings"]
        assert result.get("winner") == expected["winner"]
        # the same answer from a dict, a str and bytes
        assert validate(json.loads(data)) == result
        assert validate(data.decode("utf-8")) == result
        assert set(result["pawns_home"]) == set(result["captures"])
    else:
        assert set(result) <= {"valid", "event", "error"}
        assert result["error"]


@pytest.mark.parametrize("expected", [e for e in EXPECTED if e["valid"]], ids=lambda e: e["file"])
def test_example_replay_matches_validation(expected: dict, examples_dir: Path) -> None:
    log = json.loads((examples_dir / expected["file"]).read_bytes())
    steps = list(replay(log))
    assert len(steps) == len(log["events"])
    final = outcome(log)
    assert steps[-1].positions == final.positions
    assert list(steps[-1].placings) == expected["placings"]
    assert steps[-1].over is expected["complete"]
    for step in steps:
        assert all(len(ps) in (0, 4) for ps in step.positions.values())


@pytest.mark.parametrize(
    "expected", [e for e in EXPECTED if not e["valid"]], ids=lambda e: e["file"]
)
def test_example_replay_stops_at_the_offending_event(expected: dict, examples_dir: Path) -> None:
    log = json.loads((examples_dir / expected["file"]).read_bytes())
    seen = 0
    with pytest.raises(InvalidLog) as info:
        for _ in replay(log):
            seen += 1
    assert info.value.event == expected["event"]
    assert seen == (expected["event"] or 0)
