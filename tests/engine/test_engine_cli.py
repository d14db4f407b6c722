"""``python -m games.engine``: validate (exit codes 0/1/2, one JSON line per file),
simulate and explain."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import simulate_game, validate
from games.engine.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue().splitlines()


@pytest.fixture
def logs(tmp_path: Path) -> dict[str, Path]:
    good = simulate_game(rules="league", seed=5)
    bad = json.loads(json.dumps(good))
    bad["events"][3]["die"] = 9
    paths = {
        "good": tmp_path / "good.json",
        "bad": tmp_path / "bad.json",
        "broken": tmp_path / "broken.json",
        "missing": tmp_path / "missing.json",
    }
    paths["good"].write_text(json.dumps(good), encoding="utf-8")
    paths["bad"].write_text(json.dumps(bad), encoding="utf-8")
    paths["broken"].write_text("{not json", encoding="utf-8")
    return paths


def test_validate_all_valid(logs: dict[str, Path]) -> None:
    code, lines = run("validate", str(logs["good"]), str(logs["good"]))
    assert code == 0 and len(lines) == 2
    first = json.loads(lines[0])
    assert first["file"] == str(logs["good"])
    assert {k: v for k, v in first.items() if k != "file"} == validate(logs["good"].read_bytes())


def test_validate_one_invalid(logs: dict[str, Path]) -> None:
    code, lines = run("validate", str(logs["good"]), str(logs["bad"]))
    assert code == 1
    result = json.loads(lines[1])
    assert result["valid"] is False and result["event"] == 3 and result["file"].endswith("bad.json")


@pytest.mark.parametrize("which", ["broken", "missing"])
def test_validate_unreadable_or_not_json(logs: dict[str, Path], which: str) -> None:
    code, lines = run("validate", str(logs["bad"]), str(logs[which]), str(logs["good"]))
    assert code == 2 and len(lines) == 3
    result = json.loads(lines[1])
    assert result["valid"] is False and "event" not in result and result["error"]


def test_module_entry_point(logs: dict[str, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "validate", str(logs["good"]), str(logs["bad"])],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert [json.loads(line)["valid"] for line in lines] == [True, False]


def test_simulate(tmp_path: Path) -> None:
    code, lines = run(
        "simulate",
        "--rules",
        "league-2t+",
        "--players",
        "alice=green+red,bob=black+yellow",
        "--games",
        "3",
        "--seed",
        "7",
        "--bots",
        "heuristic,random",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    text = "\n".join(lines)
    assert "games: 3" in text and "mean rolls:" in text and "wins per bot:" in text
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for path in files:
        log = json.loads(path.read_text(encoding="utf-8"))
        assert log["players"] == {"alice": ["green", "red"], "bob": ["black", "yellow"]}
        assert log["meta"]["bots"] == {"alice": "heuristic", "bob": "random"}
        assert validate(log)["complete"]
    code, again = run(
        "simulate",
        "--rules",
        "league-2t+",
        "--players",
        "alice=green+red,bob=black+yellow",
        "--games",
        "3",
        "--seed",
        "7",
        "--bots",
        "heuristic,random",
    )
    assert again[:3] == lines[:3]  # reproducible


def test_simulate_board_6_and_bad_arguments() -> None:
    code, lines = run(
        "simulate", "--rules", "classic", "--board", "6", "--games", "2", "--seed", "1"
    )
    assert code == 0 and "board: 6" in lines[0]
    assert run("simulate", "--rules", "chess")[0] == 2
    assert run("simulate", "--players", "alice")[0] == 2


def test_explain() -> None:
    code, lines = run("explain", "online")
    assert code == 0 and lines[0].startswith("Preset online")
    code, lines = run("explain", '{"preset": "classic", "barriers": true}')
    assert code == 0 and any("barrier" in line for line in lines)
    assert run("explain", "chess")[0] == 2


def test_simulate_two_players_on_board_six_with_unused_colours(tmp_path: Path) -> None:
    """Issue 34: without --unused the empty colours were random computer players, so the
    CLI could not make the log of a two-player game on board 6 (a GP league's)."""
    code, lines = run(
        "simulate",
        "--rules",
        "league-gp",
        "--board",
        "6",
        "--players",
        "ann=red+yellow,ben=black+blue",
        "--unused",
        "green,white",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
    )
    assert code == 0, lines
    log = json.loads((tmp_path / "game-00001.json").read_text())
    assert sorted(log["unused"]) == ["green", "white"]
    assert set(log["players"]) == {"ann", "ben"}
    result = validate(log)
    assert result["valid"] and result["complete"]
    assert result["pawns_home"]["green"] == result["pawns_home"]["white"] == 0
