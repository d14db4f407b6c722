"""The network and how its scores become each player's chance of winning.

**Network.** A small multilayer perceptron in numpy: the feature row of a colour
(:mod:`.features`) → ``tanh`` hidden layers → one score ``s_c``. The same weights score
every colour, so one model serves two to six colours and both boards. A *joint* network
(``meta["joint"] = k``, ``train --joint k``) reads a colour's row followed by the rows of
the ``k − 1`` colours after it in turn order — the colours of a position seen together,
still one set of weights for every seat — and so serves fields of exactly ``k`` single
colours (a field's specialist, ``evaluator_of``).

**From scores to chances** (the end conditions of rules.md §6). Each player ``P`` gets
the logit ``σ · log Σ_{c ∈ P} exp(σ · s_c)`` over its colours still playing, and the
chances are the softmax of the logits over the players:

* ``σ = +1`` when one colour is enough (``first-colour``): the logit is a soft
  *maximum*, and the player's chance is exactly the sum of its colours' shares of a
  softmax over all colours (the first colour home wins for its player);
* ``σ = -1`` when a player must bring all of its colours home (``both-colours``, and
  ``all-places``, whose winner is the first player with all its colours placed): a soft
  *minimum*, the player's slowest colour decides.

With one colour per player both are the plain softmax of the colours' scores.

**Why numpy.** A decision of the strong player evaluates up to a few hundred positions
(every reply to every roll after every move); one matrix product per layer over all of
them costs tens of microseconds, where the same arithmetic in Python loops would cost
about 0.1 ms per position (≈ 2,000 multiply-adds each). Training (full-batch gradients
over hundreds of thousands of rows) is only practical with it.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .features import N_FEATURES, NAMES


@dataclass
class Network:
    """Weights ``[(W, b), …]``: ``tanh`` after every layer but the last (one output)."""

    layers: list[tuple[np.ndarray, np.ndarray]]
    meta: dict = field(default_factory=dict)

    @property
    def joint(self) -> int:
        """0 for a network that scores each colour's row alone; ``k`` for one that sees the
        ``k`` colours of a position together (:meth:`inputs`)."""
        return int(self.meta.get("joint", 0))

    @property
    def n_inputs(self) -> int:
        """The features of one colour's row the network reads (the first ``n_inputs``)."""
        return self.layers[0][0].shape[0] // (self.joint or 1)

    def inputs(self, x: np.ndarray) -> np.ndarray:
        """The first layer's input for the rows ``x``: their first ``n_inputs`` columns; for
        a joint network (``joint = k``) the rows come ``k`` to a position in seat order and
        each colour's input is its own row followed by the rows of the colours after it in
        turn order (the next, the one after, …), so one set of weights scores every seat."""
        n = self.n_inputs
        h = x if x.shape[1] == n else x[:, :n]
        k = self.joint
        if k:
            if len(h) % k:
                raise ValueError(f"a joint network of {k} colours got {len(h)} rows")
            g = h.reshape(-1, k, n)
            h = np.concatenate([np.roll(g, -j, axis=1) for j in range(k)], axis=2)
            h = h.reshape(-1, k * n)
        return np.ascontiguousarray(h)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score of every row of ``x`` (shape ``(rows, features)``) → ``(rows,)``; a
        model of the first ``n_inputs`` features reads those columns only.

        Each row's score is the same floats whatever else is in the batch: ``einsum`` sums
        every output in one fixed order, where a BLAS matrix product picks its kernel (and
        its order of summation) by the matrix's size, so a position scored alone and in a
        batch could differ in the last bit. (About 0.1 ms per layer for 300 rows.)"""
        h = self.inputs(x)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = np.einsum("ij,jk->ik", h, w) + b
            if i < last:
                h = np.tanh(h)
        return h[:, 0]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Scores and every layer's activations (for training's backpropagation)."""
        h = self.inputs(x)
        acts = [h]
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
            acts.append(h)
        return h[:, 0], acts

    def backward(self, acts: list[np.ndarray], grad_s: np.ndarray) -> list[tuple]:
        """Gradients of ``(W, b)`` per layer for the gradient ``grad_s`` of the scores."""
        grads: list[tuple[np.ndarray, np.ndarray]] = []
        g = grad_s[:, None]
        for i in range(len(self.layers) - 1, -1, -1):
            w, _b = self.layers[i]
            a_in = acts[i]
            grads.append((a_in.T @ g, g.sum(axis=0)))
            if i:
                g = (g @ w.T) * (1.0 - acts[i] ** 2)
        grads.reverse()
        return grads

    # --- files ---------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The model as ``.npz`` bytes (deterministic: the same weights, the same bytes)."""
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = np.ascontiguousarray(w, dtype=np.float64)
            arrays[f"b{i}"] = np.ascontiguousarray(b, dtype=np.float64)
        meta = {**self.meta, "features": list(NAMES[: self.n_inputs])}
        arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        return _zero_zip_times(buf.getvalue())

    @classmethod
    def from_bytes(cls, data: bytes) -> Network:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            layers = []
            i = 0
            while f"w{i}" in z:
                layers.append((z[f"w{i}"].astype(np.float64), z[f"b{i}"].astype(np.float64)))
                i += 1
        n = layers[0][0].shape[0] // (int(meta.get("joint", 0)) or 1)
        if n > N_FEATURES or meta.get("features") != list(NAMES[:n]):
            raise ValueError("the model was trained on other features than this code computes")
        return cls(layers, meta)

    @classmethod
    def load(cls, path: Path, sha256: str | None = None) -> Network:
        """The model in ``path``; with ``sha256``, only if the file has that digest."""
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if sha256 is not None and digest != sha256:
            raise ValueError(f"{path.name}: SHA-256 {digest}, expected {sha256}")
        return cls.from_bytes(data)


@dataclass
class Ensemble:
    """Several networks valued as one: a row's score is the mean of the members' scores
    (the mean of their logits, so the chances are the members' normalised geometric mean).
    Two models fitted to the same games err partly independently, and the mean of their
    scores errs less than either; the strong player's search then picks fewer moves for a
    model's error (the winner's curse). The features are computed once for all members,
    which take the columns they read (``n_inputs``; a joint member its own grouping), so
    a second member adds only its matrix products (about a twentieth of a decision).

    Only for valuing (``scores``; ``forward`` without the activations, for the held-out
    loss): a member is trained alone (``train``), and the ensemble is named on the command
    line (``A.npz+B.npz``, :func:`load_model`)."""

    members: list[Network]
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.members) < 2:
            raise ValueError("an ensemble needs at least two networks")
        joints = {m.joint for m in self.members} - {0}
        if len(joints) > 1:
            raise ValueError(f"joint members of different fields: {sorted(joints)}")

    @property
    def joint(self) -> int:
        """A joint member's ``k`` (the ensemble values only the fields it does), else 0."""
        return max(m.joint for m in self.members)

    @property
    def n_inputs(self) -> int:
        """The features of a row the members read together (the most any member reads)."""
        return max(m.n_inputs for m in self.members)

    def scores(self, x: np.ndarray) -> np.ndarray:
        total = self.members[0].scores(x)
        for m in self.members[1:]:
            total = total + m.scores(x)
        return total / len(self.members)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The scores (no activations: an ensemble is not trained as one)."""
        return self.scores(x), []


def load_model(spec: str | Path) -> Network | Ensemble:
    """The model a command line names: a file ``A.npz``, or ``A.npz+B.npz[+…]`` for the
    :class:`Ensemble` of those files (its ``meta["name"]``: the files' stems joined by
    ``+``)."""
    parts = str(spec).split("+")
    if not all(parts):
        raise ValueError(f"{spec!r}: an empty model file name (A.npz or A.npz+B.npz)")
    if len(parts) == 1:
        return Network.load(Path(parts[0]))
    nets = [Network.load(Path(p)) for p in parts]
    return Ensemble(nets, {"name": "+".join(Path(p).stem for p in parts)})


def _zero_zip_times(data: bytes) -> bytes:
    """``np.savez`` stamps the current time into the zip; rewrite it with a fixed one so a
    model's file (and its digest) depends on its weights only."""

    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 1, 0, 0, 0))
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def player_chances(
    scores: Sequence[float], groups: Sequence[Sequence[int]], sigma: float
) -> list[float]:
    """Each group's (player's) chance from its colours' scores (module docstring);
    ``groups`` lists the seats still playing of every player (none may be empty)."""
    logits = []
    for g in groups:
        if len(g) == 1:
            logits.append(float(scores[g[0]]))
            continue
        vals = [sigma * float(scores[c]) for c in g]
        top = max(vals)
        logits.append(sigma * (top + math.log(sum(math.exp(v - top) for v in vals))))
    top = max(logits)
    ex = [math.exp(v - top) for v in logits]
    total = sum(ex)
    return [e / total for e in ex]
