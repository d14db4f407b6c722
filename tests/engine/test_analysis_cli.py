"""``python -m games.engine analyse LOG.json``: the analysis JSON on stdout, progress on
stderr, exit 1 for an invalid log and 2 for an unreadable file or a bad argument."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import simulate_game
from games.engine.analysis import ANALYSIS_FORMAT, analyse
from games.engine.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def short_log(tmp_path: Path) -> tuple[Path, dict]:
    log = simulate_game(rules="league", seed=8)
    log["events"] = log["events"][:50]  # a valid, incomplete log: a quick analysis
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    return path, log


def test_analyse_prints_the_analysis_json(short_log, capsys) -> None:
    path, log = short_log
    out = io.StringIO()
    assert main(["analyse", str(path), "--rollouts", "3", "--seed", "4"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["format"] == ANALYSIS_FORMAT
    assert data["rollouts"] == 3 and data["seed"] == 4
    expected = analyse(log, rollouts=3, seed=4)
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected
    err = capsys.readouterr().err
    assert "100%" in err  # progress goes to stderr


def test_analyse_quiet_prints_no_progress_and_takes_a_policy(short_log, capsys) -> None:
    path, _log = short_log
    out = io.StringIO()
    assert main(["analyse", str(path), "--rollouts", "2", "--quiet"], out=out) == 0
    assert capsys.readouterr().err == ""
    data = json.loads(out.getvalue())
    assert data["rollouts"] == 2 and data["policy"] == "lite"
    out = io.StringIO()
    argv = ["analyse", str(path), "--rollouts", "2", "--quiet", "--policy", "fast"]
    assert main(argv, out=out) == 0
    assert json.loads(out.getvalue())["policy"] == "heuristic"  # the bot's own choices


def test_analyse_exit_codes(tmp_path: Path, short_log, capsys) -> None:
    path, log = short_log
    bad = json.loads(json.dumps(log))
    bad["events"][7]["die"] = 0
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad), encoding="utf-8")
    out = io.StringIO()
    assert main(["analyse", str(bad_path), "--rollouts", "2"], out=out) == 1
    assert "event 7" in capsys.readouterr().err and out.getvalue() == ""
    assert main(["analyse", str(tmp_path / "missing.json")], out=out) == 2
    assert "can't read" in capsys.readouterr().err
    assert main(["analyse", str(path), "--rollouts", "1"], out=out) == 2
    assert "rollouts" in capsys.readouterr().err
    assert out.getvalue() == ""


def test_analyse_runs_as_a_module(short_log) -> None:
    path, _log = short_log
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", str(path), "--rollouts", "2"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["format"] == ANALYSIS_FORMAT
    assert "analysing" in proc.stderr
