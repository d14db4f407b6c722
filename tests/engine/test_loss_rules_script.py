"""``bench/loss_rules.py --levels`` on a details file (the format ``bench/analysis.py
--details`` writes): every game held out (``--dev 0``) or split, the pairs in order
counted as the levels say — a bench script, run as one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"red": "random", "black": "heuristic", "yellow": "strong", "green": "heuristic"}
PER_DECISION = {"random": 30.0, "heuristic": 0.5, "strong": 0.0}  # mw lost at every decision


def _game(seed: int) -> dict:
    decisions = []
    for colour, kind in KINDS.items():
        loss = PER_DECISION[kind]
        for _ in range(12):  # enough decisions for a level
            decisions.append([colour, "middle", 0, 1, 0, [500.0, 500.0 - loss]])
    return {
        "seed": seed,
        "bots": KINDS,
        "players": list(KINDS),
        "colours": {c: c for c in KINDS},
        "winner": "yellow",
        "events": 400,
        "decisions": decisions,
    }


def _levels(tmp_path: Path, dev: int) -> str:
    details = tmp_path / "details.jsonl"
    details.write_text("".join(json.dumps(_game(50_000 + i)) + "\n" for i in range(3)))
    args = ["bench/loss_rules.py", "--levels", "--details", str(details), "--dev", str(dev)]
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_every_game_held_out_is_counted_and_no_development_set_is_reported(tmp_path):
    out = _levels(tmp_path, 0)
    assert "levels: no development games" in out
    # per game: random<heuristic twice, heuristic<strong twice, random<strong once
    assert "levels on 3 held out games: pairs in order 15/15 = 100.0%" in out
    assert "all three in order 6/6 = 100.0%" in out


def test_the_first_games_are_the_development_set(tmp_path):
    out = _levels(tmp_path, 1)
    assert "levels on 1 development games: pairs in order 5/5" in out
    assert "levels on 2 held out games: pairs in order 10/10" in out


def test_details_of_another_model_are_refused_not_mixed(tmp_path):
    """``bench/analysis.py --details`` resumes a details file game by game: a file of the
    shipped model's games is refused for a run with another model (and the other way
    round), never topped up with games of another kind."""
    sys.path.insert(0, str(ROOT / "bench"))
    from analysis import mixed_details

    from games.engine.evaluator import MANIFEST, MODELS

    model = MODELS / json.loads(MANIFEST.read_text())["file"]
    shipped = tmp_path / "shipped.jsonl"
    shipped.write_text(json.dumps(_game(50_000)) + "\n")
    with pytest.raises(SystemExit, match=r"the shipped model, not .*player_model.*another file"):
        mixed_details(2, shipped, 0, player_model=model)
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**_game(50_000), "models": {"model": str(model)}}) + "\n")
    with pytest.raises(SystemExit, match="not the shipped model: use another file"):
        mixed_details(2, other, 0)
    assert mixed_details(1, other, 0, model=model)[0]["seed"] == 50_000  # resumed: kept


def test_the_strong_players_real_difference_is_an_option(tmp_path):
    """``--strong-heuristic M,HW``: a strong player on another model brings its own paired
    win-rate difference; the verdict on the counted losses follows it."""
    details = tmp_path / "details.jsonl"
    details.write_text("".join(json.dumps(_game(50_000 + i)) + "\n" for i in range(3)))

    def verdict(truth: str) -> str:
        args = ["bench/loss_rules.py", "--details", str(details), "--dev", "1", "--rules", "raw"]
        out = subprocess.run(
            [sys.executable, *args, "--strong-heuristic", truth],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        held = next(line for line in out.splitlines() if "raw held" in line)
        return held.split("S−H")[1].split("|")[0].split()[-1]

    assert verdict("0.9,1.1") == "ok"  # the counted +0.60 within the real 0.9 ± 1.1
    assert verdict("3.0,0.5") == "NO"
