"""Several evaluator models on the same held-out self-play positions (a script, not a test).

    python bench/evaluator_heldout.py WORK MODEL.npz [MODEL.npz ...] [--seed 12]

``WORK`` is a training run's directory (``python -m games.engine train --work WORK``): its
chunk files of seed ``--seed`` are read and every tenth game (the games a run of that
directory holds out) is scored. For each model: the log loss of the players' softmax
against who won, over all held-out positions and per family of the training mix
(:data:`games.engine.evaluator.train.FAMILIES`; ``league/b4`` is four single colours under
league rules, the strong player's field), and the Brier score of the league family.
``A.npz+B.npz`` scores the ensemble of the two (the mean of their scores). A model
of generation 1 (the first 35 features) reads the first 35 columns. Lower is better; the
differences between models are what to read, the figures themselves are mostly the dice's
(the uniform guess for four single colours is ln 4 = 1.386).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.evaluator.model import Ensemble, Network, load_model
from games.engine.evaluator.train import FAMILIES, loss_and_grad


def held_out(work: Path, seed: int) -> dict[str, np.ndarray]:
    """The held-out positions (every tenth game) of the chunks of ``seed`` in ``work``."""
    parts = []
    for path in sorted(work.glob(f"data-{seed}-*.npz")):
        with np.load(path) as z:
            keep = (z["game"] % 10 == 0) & (z["y"] >= 0)
            parts.append({k: z[k][keep] for k in z.files})
    if not parts:
        raise SystemExit(f"no chunks of seed {seed} in {work}")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def scored(
    net: Network | Ensemble, data: dict[str, np.ndarray], batch: int = 8192
) -> tuple[float, float]:
    """Mean log loss and Brier score of ``net`` on ``data``."""
    n = len(data["y"])
    ll = br = 0.0
    for lo in range(0, n, batch):
        part = {k: v[lo : lo + batch] for k, v in data.items()}
        loss, _g, p = loss_and_grad(net, part, want_grad=False)
        onehot = np.zeros_like(p)
        onehot[np.arange(len(part["y"])), part["y"].astype(np.int64)] = 1.0
        ll += loss * len(part["y"])
        br += float(((p - onehot) ** 2).sum())
    return ll / n, br / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("work", type=Path)
    ap.add_argument("models", nargs="+", help="model files; A.npz+B.npz: their ensemble")
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    data = held_out(args.work, args.seed)
    fams = sorted(set(data["family"].tolist()))
    print(f"{len(data['y'])} held-out positions of {len(set(data['game'].tolist()))} games")
    head = "model".ljust(28) + " all     " + " ".join(f"{FAMILIES[f].label[:14]:>14}" for f in fams)
    print(head + "   league Brier")
    for path in args.models:
        net = load_model(path)
        line = f"{Path(path).name[:27]:<28}{scored(net, data)[0]:.5f} "
        for f in fams:
            sel = data["family"] == f
            line += f" {scored(net, {k: v[sel] for k, v in data.items()})[0]:14.5f}"
        sel = data["family"] == 0
        line += f"   {scored(net, {k: v[sel] for k, v in data.items()})[1]:.5f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
