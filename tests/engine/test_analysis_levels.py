"""Levels of a player's game (``BANDS``, issue #37, since ``maedn-analysis/5``): judged by
the chances lost per decision (the counted loss), not the raw error rate; the edges and
what they separate are measured by ``bench/loss_rules.py --levels`` (docs/analysis.md,
"Levels")."""

from __future__ import annotations

import itertools
import math

import pytest

from games.engine import simulate_game
from games.engine.analysis import BANDS, analyse, band_for
from games.engine.analysis.analyse import MIN_DECISIONS_FOR_BAND

MIXED = ("random", "heuristic", "strong", "heuristic")
COLOURS = ("red", "black", "yellow", "green")


def test_the_levels_rise_with_fewer_chances_lost_and_need_ten_decisions() -> None:
    names = [name for name, _ in BANDS]
    assert names == ["excellent", "strong", "solid", "uneven", "weak"]
    uppers = [upper for _, upper in BANDS]
    assert uppers == sorted(uppers) and math.isinf(uppers[-1])
    for (name, upper), (after, _) in itertools.pairwise(BANDS):
        assert band_for(upper, MIN_DECISIONS_FOR_BAND) == name  # an edge belongs below it
        assert band_for(upper * 1.001 + 1e-6, MIN_DECISIONS_FOR_BAND) == after
    assert band_for(0.0, MIN_DECISIONS_FOR_BAND - 1) is None
    assert band_for(None, 30) is None


@pytest.fixture(scope="module")
def mixed_games() -> list[dict]:
    """Three mixed league games of ``bench/analysis.py`` (seeds 50,000 on)."""
    out = []
    for i in range(3):
        bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
        log = simulate_game(rules="league", bots=bots, seed=50_000 + i)
        out.append({"bots": bots, "analysis": analyse(log)})
    return out


def test_a_players_level_is_that_of_its_chances_lost_per_decision(mixed_games) -> None:
    for game in mixed_games:
        data = game["analysis"]
        for s in data["summary"].values():
            n = s["decisions"]
            if n < MIN_DECISIONS_FOR_BAND:
                assert s["band"] is None
                continue
            # loss_mw is rounded to 0.1 mw: the level of the figure either side of it
            near = {band_for((s["loss_mw"] + d) / n, n) for d in (-0.05, 0.0, 0.05)}
            assert s["band"] in near
            # not the error rate's level: a different figure (raw losses, not counted)
            assert s["error_rate"] >= s["loss_mw"] / n - 0.1


def test_a_random_mover_is_never_levelled_above_the_strong_player(mixed_games) -> None:
    names = [name for name, _ in BANDS]
    for game in mixed_games:
        data = game["analysis"]
        kind = {data["colours"][c]: bot for c, bot in game["bots"].items()}
        level = {kind[p]: s["band"] for p, s in data["summary"].items() if s["band"]}
        assert names.index(level["random"]) > names.index(level["strong"])
