"""The analysis says how sure it is, and is as sure as it says (issue #37).

Reference positions (``tests/engine/analysis_reference.json``, made by ``python
bench/analysis.py --calibration``: seeded league games, each decision's best and played
move valued by paired rollouts to the end under the heuristic policy — the players' real
continuation — and under a random one):

* the shipped model still gives these positions the losses they were measured with (a
  changed model or analysis must be measured again, not trusted);
* the 90 % interval of every loss (``loss_interval_mw``: ± 1.645 times the measured error
  of a loss of that size) covers the rollouts' loss in at least 85 % of the positions once
  the rollouts' own noise is allowed for — too narrow an interval (the 12 mw of every loss
  before this measurement) fails;
* no move the shipped rule marks is one the rollouts cannot tell from the best: each
  marked move's 95 % rollout interval lies above 0 under the heuristic policy, and under
  the random one too (a mark one policy alone sees is not shown).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from games.engine import simulate_game
from games.engine.analysis import loss_sd_mw
from games.engine.analysis.analyse import decision_mark, mark_margins
from games.engine.analysis.decisions import walk
from games.engine.analysis.equity import Equity
from games.engine.evaluator import endgame, evaluator_for

REFERENCE = Path(__file__).with_name("analysis_reference.json")
Z90 = 1.6448536269514722
Z95 = 1.959963984540054


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def _losses(row: dict) -> dict[int, float]:
    log = simulate_game(rules="league", bots=row["bots"], seed=row["seed"])
    with endgame.private_store():
        w = walk(log, lambda g: Equity(evaluator_for(g.rules), g, 1), lookahead=False)
    return {d.event: d.loss(w.players.index(d.player)) for d in w.decisions}


def test_the_shipped_model_gives_the_reference_positions_their_measured_losses(
    reference,
) -> None:
    rows = reference["rows"]
    # a few games of each kind (a changed model changes every loss)
    for kind in ("ordinary", "marked"):
        seeds = sorted({r["seed"] for r in rows if r["kind"] == kind})[:3]
        for seed in seeds:
            mine = [r for r in rows if r["kind"] == kind and r["seed"] == seed]
            losses = _losses(mine[0])
            for r in mine:
                assert losses[r["event"]] == pytest.approx(r["loss"], abs=1e-9), (
                    "the analysis changed: measure again (bench/analysis.py --calibration)"
                )


def _covered(row: dict, sd_mw=None) -> bool:
    loss_mw = 1000 * row["loss"]
    sd = loss_sd_mw(row["endgame"], loss_mw) if sd_mw is None else sd_mw
    se = 1000 * math.sqrt(row["heuristic"]["var_mean"])
    return abs(loss_mw - 1000 * row["heuristic"]["mean"]) <= Z90 * math.hypot(sd, se)


def test_the_90_percent_interval_covers_the_rollouts_at_least_85_percent(reference) -> None:
    rows = reference["rows"]
    assert len(rows) >= 60
    for kind in ("ordinary", "marked"):
        mine = [r for r in rows if r["kind"] == kind]
        assert len(mine) >= 25
        share = sum(map(_covered, mine)) / len(mine)
        assert share >= 0.85, (kind, share)
    assert sum(map(_covered, rows)) / len(rows) >= 0.85
    # the set tells a too narrow interval: 12 mw for every loss (session 10) misses marks
    marked = [r for r in rows if r["kind"] == "marked"]
    assert sum(_covered(r, 12.0) for r in marked) / len(marked) < 0.8


def test_no_mark_of_the_shipped_rule_is_one_the_rollouts_cannot_tell(reference) -> None:
    marked = 0
    for r in reference["rows"]:
        mark = decision_mark(1000 * r["loss"], r["endgame"], mark_margins(r["decisions"]))
        if mark is None:
            continue
        marked += 1
        h, rnd = r["heuristic"], r["random"]
        assert h["mean"] - Z95 * math.sqrt(h["var_mean"]) > 0, r
        # and the weak policy agrees: no shown mark is seen by one policy only
        assert rnd["mean"] - Z95 * math.sqrt(rnd["var_mean"]) > 0, r
    assert marked >= 5  # the rule still marks the clearest of the reference set's marked moves
