"""``python -m games.engine analyse LOG.json``: the analysis JSON on stdout, progress on
stderr, exit 1 for an invalid log and 2 for an unreadable file or a bad argument. In
process the shipped model is replaced by the stand-in (the CLI takes the default model,
``games.engine.analysis.equity.default_evaluator``); the module run uses the real one."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import simulate_game
from games.engine.analysis import ANALYSIS_FORMAT, MARK_CHECK_ROLLOUTS, analyse
from games.engine.cli import main
from tests.engine.stand_in_evaluator import ProgressEvaluator

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL = ProgressEvaluator()


@pytest.fixture
def stand_in(monkeypatch):
    module = sys.modules["games.engine.analysis.analyse"]  # the name is the function's
    monkeypatch.setattr(module, "default_evaluator", lambda game: MODEL)


@pytest.fixture
def short_log(tmp_path: Path) -> tuple[Path, dict]:
    log = simulate_game(rules="league", seed=8)
    log["events"] = log["events"][:50]  # a valid, incomplete log: a quick analysis
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    return path, log


def test_analyse_prints_the_analysis_json(stand_in, short_log, capsys) -> None:
    path, log = short_log
    out = io.StringIO()
    assert main(["analyse", str(path)], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["format"] == ANALYSIS_FORMAT and data["plies"] == 1
    expected = analyse(log, evaluator=MODEL, mark_checks=MARK_CHECK_ROLLOUTS)
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected
    err = capsys.readouterr().err
    assert "100%" in err  # progress goes to stderr


def test_analyse_quiet_prints_no_progress_and_takes_plies(stand_in, short_log, capsys) -> None:
    path, log = short_log
    out = io.StringIO()
    assert main(["analyse", str(path), "--plies", "0", "--quiet"], out=out) == 0
    assert capsys.readouterr().err == ""
    data = json.loads(out.getvalue())
    assert data["plies"] == 0
    expected = analyse(log, evaluator=MODEL, plies=0, mark_checks=MARK_CHECK_ROLLOUTS)
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected


def test_analyse_exit_codes(stand_in, tmp_path: Path, short_log, capsys) -> None:
    path, log = short_log
    bad = json.loads(json.dumps(log))
    bad["events"][7]["die"] = 0
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad), encoding="utf-8")
    out = io.StringIO()
    assert main(["analyse", str(bad_path)], out=out) == 1
    assert "event 7" in capsys.readouterr().err and out.getvalue() == ""
    assert main(["analyse", str(tmp_path / "missing.json")], out=out) == 2
    assert "can't read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["analyse", str(path), "--plies", "3"], out=out)
    assert info.value.code == 2
    assert "plies" in capsys.readouterr().err
    assert out.getvalue() == ""


@pytest.mark.skipif(
    importlib.util.find_spec("games.engine.evaluator") is None,
    reason="the shipped evaluator (games.engine.evaluator) is not in this tree yet",
)
def test_analyse_runs_as_a_module_with_the_shipped_model(short_log) -> None:
    path, _log = short_log
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", str(path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["format"] == ANALYSIS_FORMAT and data["model"]
    assert "analysing" in proc.stderr
