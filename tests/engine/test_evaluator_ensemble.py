"""The ensemble of evaluator networks (``model.Ensemble``): the mean of the members' scores,
so its chances are the members' normalised geometric mean; named on the command line as
``A.npz+B.npz`` (``load_model``, ``bench/bots.py``, ``bench/evaluator_heldout.py``)."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from games.engine.evaluator import Evaluator
from games.engine.evaluator.model import Ensemble, Network, load_model
from games.engine.evaluator.train import init_network, loss_and_grad
from games.engine.game import Game
from games.engine.strong import StrongBot

ROOT = Path(__file__).resolve().parents[2]


def _mid_game(seed: int, plies: int = 60) -> Game:
    g = Game.new("league")
    rng = random.Random(seed)
    for _ in range(plies):
        die = rng.randint(1, 6)
        moves = g.legal_moves(die)
        g.push(die, rng.choice(moves) if moves else None)
        if g.over:
            break
    return g


def _evaluator(model) -> Evaluator:
    return Evaluator(model, "test", exact_races=False, exact_endgames=False)


def test_the_ensembles_chances_are_the_members_normalised_geometric_mean():
    a, b = init_network(1, (8,)), init_network(2, (6, 4))
    both = Ensemble([a, b])
    for seed in range(5):
        g = _mid_game(seed)
        pa, pb = _evaluator(a).win_chances(g), _evaluator(b).win_chances(g)
        geo = [math.sqrt(x * y) for x, y in zip(pa, pb, strict=True)]
        want = [x / sum(geo) for x in geo]
        got = _evaluator(both).win_chances(g)
        assert got == pytest.approx(want, abs=1e-12)
        assert got != pytest.approx(pa, abs=1e-6) and got != pytest.approx(pb, abs=1e-6)


def test_an_ensemble_of_one_network_twice_is_that_network_bit_for_bit():
    a = init_network(3, (8,))
    x = np.random.default_rng(0).normal(size=(12, a.n_inputs))
    assert np.array_equal(Ensemble([a, a]).scores(x), a.scores(x))
    g = _mid_game(7)
    assert _evaluator(Ensemble([a, a])).win_chances(g) == _evaluator(a).win_chances(g)


def test_members_reading_fewer_features_take_their_own_columns():
    short, full = init_network(4, (5,), features=35), init_network(5, (5,))
    both = Ensemble([short, full])
    assert both.n_inputs == full.n_inputs
    x = np.random.default_rng(1).normal(size=(8, full.n_inputs))
    want = (short.scores(x[:, :35]) + full.scores(x)) / 2
    assert np.allclose(both.scores(x), want, rtol=0, atol=1e-12)


def test_a_joint_member_makes_the_ensemble_joint_and_mixed_fields_are_refused():
    joint = init_network(6, (5,), joint=4)
    both = Ensemble([init_network(7, (5,)), joint])
    assert both.joint == 4
    with pytest.raises(ValueError, match="values games of 4 single colours only"):
        _evaluator(both).win_chances(Game.new("league", unused=["green"]))
    with pytest.raises(ValueError, match="different fields"):
        Ensemble([joint, init_network(8, (5,), joint=3)])
    with pytest.raises(ValueError, match="at least two"):
        Ensemble([joint])


def test_the_held_out_loss_of_an_ensemble_of_identical_members_is_the_members():
    a = init_network(9, (6,))
    rng = np.random.default_rng(2)
    batch = {
        "x": rng.normal(size=(20, 4, a.n_inputs)).astype(np.float32),
        "active": np.ones((20, 4), dtype=bool),
        "member": np.tile(np.arange(4, dtype=np.int8), (20, 1)),
        "sigma": np.ones(20, dtype=np.float32),
        "y": rng.integers(0, 4, 20).astype(np.int8),
    }
    alone, _g, _p = loss_and_grad(a, batch, want_grad=False)
    twice, _g, _p = loss_and_grad(Ensemble([a, a]), batch, want_grad=False)
    other, _g, _p = loss_and_grad(Ensemble([a, init_network(10, (6,))]), batch, want_grad=False)
    assert twice == alone and other != alone


def test_a_command_line_names_an_ensemble_with_a_plus(tmp_path, monkeypatch):
    paths = []
    for i, name in enumerate(("L1", "J1")):
        net = init_network(11 + i, (4,), joint=4 if name == "J1" else 0)
        path = tmp_path / f"{name}.npz"
        path.write_bytes(net.to_bytes())
        paths.append(path)
    single = load_model(paths[0])
    assert isinstance(single, Network)
    both = load_model(f"{paths[0]}+{paths[1]}")
    assert isinstance(both, Ensemble) and both.meta["name"] == "L1+J1" and both.joint == 4
    for bad in (f"{paths[0]}+", f"+{paths[0]}", ""):
        with pytest.raises(ValueError, match="empty model file name"):
            load_model(bad)
    with pytest.raises(FileNotFoundError):
        load_model(f"{paths[0]}+{tmp_path / 'missing.npz'}")
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "bench" / "bots.py")
    bots = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_bots", bots)
    spec.loader.exec_module(bots)
    bot = bots.bench_bot(f"{paths[0]}+{paths[1]}")
    assert isinstance(bot, StrongBot) and bot.depth == 3
    game = Game.new("league")
    assert isinstance(bot.evaluator(game).network, Ensemble)
    assert bot.evaluator(game).name == "L1+J1"
