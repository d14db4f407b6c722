"""The analysis is the same in this process and in fresh ones (issue #37: same input →
same verdict): two fresh interpreters with different hash seeds (so any dependence on set
or dict order of hashed keys would show) give, key for key, what this process gives with
the shipped model — losses, marks, intervals and summaries alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from games.engine import simulate_game
from games.engine.analysis import analyse

REPO_ROOT = Path(__file__).resolve().parents[2]
MIXED = {"red": "random", "black": "heuristic", "yellow": "strong", "green": "heuristic"}


def _fresh(path: Path, hash_seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", str(path), "--quiet"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    data.pop("seconds")
    return data


def test_the_same_analysis_in_this_process_and_in_two_fresh_ones(tmp_path: Path) -> None:
    log = simulate_game(rules="league", bots=MIXED, seed=50_005)
    log["events"] = log["events"][:160]  # a valid, incomplete log: about a CPU second
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    here = analyse(log)
    here.pop("seconds")
    here = json.loads(json.dumps(here))  # as the command prints it
    assert here["decisions"], "the prefix must hold decisions to compare"
    assert any(d["loss_mw"] > 0 for d in here["decisions"])
    first, second = _fresh(path, "1"), _fresh(path, "4242")
    assert first == here
    assert second == here
