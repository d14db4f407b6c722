"""The evaluator's shipped weights (they load and match their recorded digest, and they
are small) and the training command (seeded, progress on stderr, an interrupted run
resumed from its checkpoint ends with the same model as an uninterrupted one)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sys

import numpy as np
import pytest

from games.engine.cli import main
from games.engine.evaluator import MANIFEST, MODELS, shipped_network
from games.engine.evaluator.features import N_FEATURES, NAMES
from games.engine.evaluator.model import Network


def test_the_shipped_model_matches_its_digest_and_is_small():
    manifest = json.loads(MANIFEST.read_text())
    path = MODELS / manifest["file"]
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == manifest["sha256"]
    assert len(data) < 100_000  # "well under 1 MB"
    net = shipped_network()
    assert net.meta["trained"] is True and net.meta["features"] == list(NAMES[: net.n_inputs])
    assert net.n_inputs <= N_FEATURES
    for w, b in net.layers:
        assert np.isfinite(w).all() and np.isfinite(b).all()


def test_a_model_with_another_digest_is_refused(tmp_path):
    manifest = json.loads(MANIFEST.read_text())
    bad = tmp_path / "m.npz"
    bad.write_bytes((MODELS / manifest["file"]).read_bytes())
    assert Network.load(bad, manifest["sha256"]).layers  # the same bytes load
    with pytest.raises(ValueError, match="SHA-256"):
        Network.load(bad, "0" * 64)


def test_a_model_round_trips_through_its_bytes_exactly():
    net = shipped_network()
    again = Network.from_bytes(net.to_bytes())
    assert again.to_bytes() == net.to_bytes()
    x = np.random.default_rng(0).random((7, N_FEATURES))
    assert (again.scores(x) == net.scores(x)).all()


class _Interrupt(Exception):
    pass


class _StopAtEpoch(io.StringIO):
    """A stderr that interrupts the run when the given epoch reports (after the epoch
    before it has written its checkpoint)."""

    def __init__(self, epoch: int) -> None:
        super().__init__()
        self.epoch = epoch

    def write(self, text: str) -> int:
        if text.startswith(f"epoch {self.epoch}/"):
            raise _Interrupt
        return super().write(text)


def _train(work, out, monkeypatch, err=None, extra=()) -> str:
    args = [
        "train",
        "--work",
        str(work),
        "--out",
        str(out),
        "--games",
        "6",
        "--chunk",
        "3",
        "--sample",
        "0.05",
        "--hidden",
        "6",
        "--epochs",
        "3",
        "--batch",
        "64",
        "--seed",
        "3",
        *extra,
    ]
    monkeypatch.setattr(sys, "stderr", err or io.StringIO())
    stdout = io.StringIO()
    assert main(args, stdout) == 0
    return stdout.getvalue()


def test_training_resumed_from_its_checkpoint_equals_an_uninterrupted_run(tmp_path, monkeypatch):
    a, a2, b = (tmp_path / x for x in ("a", "a2", "b"))
    whole = _train(a / "work", a / "m.npz", monkeypatch)
    progress = io.StringIO()
    _train(a2 / "work", a2 / "m.npz", monkeypatch, progress)
    assert "games 6/6" in progress.getvalue() and "epoch 3/3" in progress.getvalue()
    assert (a / "m.npz").read_bytes() == (a2 / "m.npz").read_bytes()  # seeded

    with pytest.raises(_Interrupt):
        _train(b / "work", b / "m.npz", monkeypatch, _StopAtEpoch(2))
    assert not (b / "m.npz").exists()
    chunks = sorted((b / "work").glob("data-*.npz"))
    assert len(chunks) == 2
    chunks[1].unlink()  # lost too: played again, the same games
    resumed = io.StringIO()
    again = _train(b / "work", b / "m.npz", monkeypatch, resumed)
    assert "resumed at epoch 1" in resumed.getvalue()
    assert (b / "m.npz").read_bytes() == (a / "m.npz").read_bytes()
    assert json.loads(again)["sha256"] == json.loads(whole)["sha256"]


def test_an_init_seed_starts_a_second_model_of_the_same_games(tmp_path, monkeypatch):
    _train(tmp_path / "a", tmp_path / "a.npz", monkeypatch)
    (tmp_path / "b").mkdir()
    for chunk in (tmp_path / "a").glob("data-*.npz"):  # the same games, not played again
        shutil.copy(chunk, tmp_path / "b" / chunk.name)
    progress = io.StringIO()
    _train(tmp_path / "b", tmp_path / "b.npz", monkeypatch, progress, ("--init-seed", "4"))
    assert "games " not in progress.getvalue()  # read back, not played
    _train(tmp_path / "c", tmp_path / "c.npz", monkeypatch, None, ("--init-seed", "3"))
    a, b, c = (Network.load(tmp_path / f"{x}.npz") for x in "abc")
    assert a.meta["positions"] == b.meta["positions"] and b.meta["init_seed"] == 4
    assert "init_seed" not in a.meta
    assert all(np.array_equal(x, y) for (x, _), (y, _) in zip(a.layers, c.layers, strict=True))
    assert not np.allclose(a.layers[0][0], b.layers[0][0])


def test_td_targets_are_the_teachers_chances_a_horizon_later_or_the_outcome():
    from games.engine.evaluator import Evaluator
    from games.engine.evaluator.train import heuristic_chooser, play_game

    teacher = Evaluator(shipped_network(), "teacher")
    plain = play_game(4, 9, 0.2, heuristic_chooser())
    xs, _a, _m, _s, ys, _f, ts = play_game(4, 9, 0.2, heuristic_chooser(), teacher, 12)
    assert len(ts) == len(xs) == len(plain[0]) > 3
    assert all((np.asarray(x) == np.asarray(p)).all() for x, p in zip(xs, plain[0], strict=True))
    for t in ts:
        assert len(t) == 6 and sum(t) == pytest.approx(1.0) and min(t) >= 0.0
    # the last samples' horizon lies past the end: their target is the outcome
    assert ts[-1][ys[-1]] == 1.0
    # the earlier ones are the teacher's (not one-hot)
    assert any(0.0 < max(t) < 1.0 for t in ts[:-1])


def test_training_on_td_targets_runs_and_records_them(tmp_path, monkeypatch):
    args = ["train", "--work", str(tmp_path / "w"), "--out", str(tmp_path / "m.npz")]
    args += ["--games", "4", "--chunk", "2", "--sample", "0.05", "--hidden", "6"]
    args += ["--epochs", "2", "--batch", "64", "--seed", "3", "--td-events", "12"]
    args += ["--td-weight", "0.5"]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(args, io.StringIO()) == 0
    net = Network.load(tmp_path / "m.npz")
    assert net.meta["td_events"] == 12 and net.meta["td_weight"] == 0.5
    with np.load(next((tmp_path / "w").glob("data-*.npz"))) as z:
        assert z["t"].shape == (len(z["y"]), 6)


def test_a_model_of_the_first_features_reads_those_columns_only(tmp_path, monkeypatch):
    """Features are only appended: a model trained on the first ``n`` (generation 1: 35)
    scores a full row as it scores its own columns, bit for bit, and its file says which."""
    rng = np.random.default_rng(1)
    full = rng.random((9, N_FEATURES))
    args = ["train", "--work", str(tmp_path / "w"), "--out", str(tmp_path / "m.npz")]
    args += ["--games", "4", "--chunk", "2", "--sample", "0.05", "--hidden", "6"]
    args += ["--epochs", "1", "--batch", "64", "--seed", "3", "--features", "35"]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(args, io.StringIO()) == 0
    net = Network.load(tmp_path / "m.npz")
    assert net.n_inputs == 35 and net.meta["features"] == list(NAMES[:35])
    own = np.ascontiguousarray(full[:, :35])
    assert (net.scores(full) == net.scores(own)).all()
    longer = Network([(np.zeros((N_FEATURES + 1, 1)), np.zeros(1))], {})
    with pytest.raises(ValueError, match="other features"):
        Network.from_bytes(longer.to_bytes())


def test_training_on_one_family_plays_only_its_games_in_its_own_chunks(tmp_path, monkeypatch):
    """``--families league/b4``: every self-play game is four single colours under league
    rules, the chunks are named after the family (a whole-mix run never reads them), the
    arrays keep four colour slots, and the model file says which family it learned."""
    from games.engine.evaluator.train import families_named, families_tag, play_game

    league = families_named("league/b4")
    assert [f.label for f in league] == ["league/b4"] and families_tag(league) == "-league-b4"

    def first(g, c, n, moves, rng):
        return moves[0]

    for i in range(6):  # the whole mix draws other families for some of these games
        *_rest, fam_id = play_game(i, 3, 0.05, first, None, 0, league)
        assert fam_id == 0
    classic = families_named("online/b4,classic/b4")  # the mix's order, its indices
    assert [f.label for f in classic] == ["classic/b4", "online/b4"]
    drawn = {play_game(i, 3, 0.05, first, None, 0, classic)[5] for i in range(12)}
    assert drawn == {10, 12}  # FAMILIES[10] is classic/b4, FAMILIES[12] online/b4
    with pytest.raises(ValueError, match=r"unknown families nope.*league/b4"):
        families_named("league/b4,nope")

    args = ["train", "--work", str(tmp_path / "w"), "--out", str(tmp_path / "m.npz")]
    args += ["--games", "4", "--chunk", "2", "--sample", "0.05", "--hidden", "6"]
    args += ["--epochs", "1", "--batch", "64", "--seed", "3", "--families", "league/b4"]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(args, io.StringIO()) == 0
    chunks = sorted(p.name for p in (tmp_path / "w").glob("data-*.npz"))
    assert chunks == ["data-3-league-b4-000000-000002.npz", "data-3-league-b4-000002-000004.npz"]
    with np.load(tmp_path / "w" / chunks[0]) as z:
        assert (z["family"] == 0).all() and not z["active"][:, 4:].any()
    assert Network.load(tmp_path / "m.npz").meta["families"] == ["league/b4"]

    bad = [*args[:-1], "league/b5"]
    with pytest.raises(SystemExit, match="--families: unknown families league/b5"):
        main(bad, io.StringIO())


def test_four_slots_train_exactly_as_six_with_two_empty():
    """A board-4 run keeps four colour slots: the loss and its gradients are those of the
    same positions with six slots (two empty), to rounding."""
    from games.engine.evaluator.train import _slots, init_network, loss_and_grad

    rng = np.random.default_rng(5)
    b = 40
    six = {
        "x": np.zeros((b, 6, N_FEATURES), dtype=np.float32),
        "active": np.zeros((b, 6), dtype=bool),
        "member": np.full((b, 6), -1, dtype=np.int8),
        "sigma": np.ones(b, dtype=np.float32),
        "y": rng.integers(0, 4, b).astype(np.int8),
    }
    six["x"][:, :4] = rng.random((b, 4, N_FEATURES))
    six["active"][:, :4] = rng.random((b, 4)) < 0.9
    six["active"][np.arange(b), six["y"]] = True
    six["member"][:, :4] = np.arange(4)
    net = init_network(2, (6,), N_FEATURES)
    l6, g6, p6 = loss_and_grad(net, six)
    l4, g4, p4 = loss_and_grad(net, _slots(six, 4))
    assert l4 == pytest.approx(l6, rel=1e-12)
    assert np.allclose(p4[:, :4], p6[:, :4]) and not p6[:, 4:].any()
    for (w4, c4), (w6, c6) in zip(g4, g6, strict=True):
        assert np.allclose(w4, w6, atol=1e-14) and np.allclose(c4, c6, atol=1e-14)


def _league_batch(b: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    batch = {
        "x": rng.random((b, 4, N_FEATURES)).astype(np.float32),
        "active": rng.random((b, 4)) < 0.9,
        "member": np.tile(np.arange(4, dtype=np.int8), (b, 1)),
        "sigma": np.ones(b, dtype=np.float32),
        "y": rng.integers(0, 4, b).astype(np.int8),
    }
    batch["active"][np.arange(b), batch["y"]] = True
    return batch


def test_a_joint_network_scores_every_seat_with_the_others_in_turn_order():
    """``--joint 4``: a colour's input is its row and the rows of the three colours after
    it; turning the seats round turns the scores round with them, and a change in one
    colour's row changes every colour's score (a per-colour network: its own only)."""
    from games.engine.evaluator.train import init_network

    net = init_network(4, (8,), 35, joint=4)
    assert net.joint == 4 and net.n_inputs == 35 and net.layers[0][0].shape == (140, 8)
    x = np.random.default_rng(1).random((3 * 4, N_FEATURES))
    s = net.scores(x).reshape(3, 4)
    turned = np.roll(x.reshape(3, 4, N_FEATURES), 1, axis=1).reshape(12, N_FEATURES)
    assert np.allclose(net.scores(turned).reshape(3, 4), np.roll(s, 1, axis=1), atol=1e-12)
    y = x.copy()
    y[1, :35] += 0.5  # the second colour of the first position
    changed = net.scores(y).reshape(3, 4) != s
    assert changed[0].all() and not changed[1:].any()
    solo = init_network(4, (8,), 35)
    changed = solo.scores(y).reshape(3, 4) != solo.scores(x).reshape(3, 4)
    assert changed[0].tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="joint network of 4 colours got 6 rows"):
        net.scores(x[:6])
    again = Network.from_bytes(net.to_bytes())
    assert again.joint == 4 and (again.scores(x) == net.scores(x)).all()


def test_a_joint_networks_gradients_are_the_losss_derivatives():
    """The analytic gradients of a joint network match finite differences of the loss
    (the first layer's four blocks included), on six slots as on four."""
    from games.engine.evaluator.train import init_network, loss_and_grad

    batch = _league_batch(30, 7)
    net = init_network(9, (5,), N_FEATURES, joint=4)
    loss, grads, _p = loss_and_grad(net, batch)
    rng = np.random.default_rng(2)
    for layer in range(2):
        w, _b = net.layers[layer]
        for _ in range(6):
            i, j = (int(rng.integers(0, d)) for d in w.shape)
            eps = 1e-6
            w[i, j] += eps
            up = loss_and_grad(net, batch, want_grad=False)[0]
            w[i, j] -= 2 * eps
            down = loss_and_grad(net, batch, want_grad=False)[0]
            w[i, j] += eps
            assert grads[layer][0][i, j] == pytest.approx((up - down) / (2 * eps), abs=1e-7)
    six = {k: v for k, v in batch.items()}
    six["x"] = np.concatenate([batch["x"], np.zeros((30, 2, N_FEATURES), np.float32)], axis=1)
    six["active"] = np.concatenate([batch["active"], np.zeros((30, 2), bool)], axis=1)
    six["member"] = np.concatenate([batch["member"], np.full((30, 2), -1, np.int8)], axis=1)
    assert loss_and_grad(net, six, want_grad=False)[0] == pytest.approx(loss, rel=1e-12)


def test_a_joint_model_trains_on_four_single_colours_and_values_only_those(tmp_path, monkeypatch):
    """``train --joint 4 --families league/b4`` writes a joint model the evaluator uses for
    league games (the chances sum to 1); a mix with other fields is refused by name, and
    the evaluator refuses a game of another field rather than value it wrongly."""
    from games.engine.evaluator import Evaluator
    from games.engine.game import Game

    args = ["train", "--work", str(tmp_path / "w"), "--out", str(tmp_path / "m.npz")]
    args += ["--games", "4", "--chunk", "2", "--sample", "0.05", "--hidden", "6"]
    args += ["--epochs", "1", "--batch", "64", "--seed", "3", "--families", "league/b4"]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main([*args, "--joint", "4"], io.StringIO()) == 0
    net = Network.load(tmp_path / "m.npz")
    assert net.joint == 4 and net.meta["joint"] == 4 and net.layers[0][0].shape[0] == 4 * 43
    ev = Evaluator(net, "joint", exact_races=False, exact_endgames=False)
    g = Game.new("league")
    chances = ev.win_chances(g)
    assert len(chances) == 4 and sum(chances) == pytest.approx(1.0)
    mix = ["train", "--work", str(tmp_path / "mix"), "--out", str(tmp_path / "x.npz")]
    mix += ["--games", "2", "--chunk", "2", "--sample", "0.05", "--hidden", "6", "--epochs"]
    mix += ["1", "--seed", "3", "--families", "league/b4,league/b6", "--joint", "4"]
    with pytest.raises(SystemExit, match="--joint 4: every position must have 4 single"):
        main(mix, io.StringIO())
    two = Game.new("league", unused=["black", "green"])
    with pytest.raises(ValueError, match="games of 4 single colours only"):
        ev.win_chances(two)
