"""Training the evaluator on self-play (``python -m games.engine train``).

In the spirit of TD-Gammon, fitted to self-play outcomes: games are played by computer
players under a mix of the presets' rule families (:data:`FAMILIES`: both boards, one or
two colours per player, every end condition); at sampled roll points the feature rows of
every colour are kept with the player who won that game; the network is fitted to those
outcomes by minimising the log loss of its players' softmax (:mod:`.model`), with Adam.
The positions' labels are outcomes of the players' play (not of perfect play): the
evaluator estimates the chance of winning "if everyone plays like the self-play players".

Generation 1 plays the heuristic bot (with 5 % random moves, for positions off its usual
paths); ``--policy strong`` lets a trained model play itself (the strong player's one-ply
choice on the current evaluator), the next generation. ``--families league/b4`` plays only
the named families of the mix (a *specialist* for the league's own games: docs/engine.md,
"Session 20").

Everything is seeded: game ``i`` of a run draws its family, first colour and dice from
``(seed, i)``, epoch ``e`` shuffles with ``(seed, e)``, and the weights start from
``seed``. A run keeps its state in ``--work DIR``: the positions in chunks
(``data-NNNNN.npz``, one per ``--chunk`` games) and, after every epoch, ``checkpoint.npz``
(weights, Adam's moments, the epoch). Run the same command again after an interruption
and it goes on from there: the finished chunks are read back, the training resumes at the
next epoch, and the result is the same as an uninterrupted run's, bit for bit (a test
checks it). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from ..bots import HeuristicBot, RandomBot
from ..game import Game
from ..setup import colours_in_play
from ..strong import StrongBot
from . import Evaluator, shipped_network
from .features import N_FEATURES, first_complete_player, rows
from .model import Ensemble, Network

SLOTS = 6
"""Colours per position in the training arrays (board 6; board 4 pads with empty rows)."""


@dataclass(frozen=True)
class Family:
    """A kind of self-play game: rules, board, who holds which colours, unused colours."""

    weight: int
    preset: str
    board: int
    players: tuple[tuple[str, tuple[str, ...]], ...] = ()
    unused: tuple[str, ...] = ()

    def new(self, first: str) -> Game:
        return Game.new(
            self.preset,
            self.board,
            first=first,
            players={p: list(cs) for p, cs in self.players} or None,
            unused=list(self.unused) or None,
        )

    @property
    def label(self) -> str:
        who = "+".join("".join(c[0] for c in cs) for _p, cs in self.players)
        return (
            f"{self.preset}/b{self.board}"
            + (f"/{who}" if who else "")
            + (f"/{len(self.unused)}unused" if self.unused else "")
        )


_2T = (("a", ("green", "red")), ("b", ("black", "yellow")))
_3T = (("a", ("red", "black")), ("b", ("yellow", "green")), ("c", ("blue", "white")))
_GP4 = (("a", ("red", "yellow")), ("b", ("black", "green")))

FAMILIES: tuple[Family, ...] = (
    Family(6, "league", 4),
    Family(2, "league", 4, _2T),
    Family(2, "league-2t+", 4, _2T),
    Family(1, "league", 4, (), ("black", "green")),
    Family(1, "league", 4, (), ("green",)),
    Family(2, "league", 6),
    Family(1, "league", 6, _3T),
    Family(1, "league-3t+", 6, _3T),
    Family(2, "league-gp", 4),
    Family(1, "league-gp", 4, _GP4),
    Family(3, "classic", 4),
    Family(1, "classic", 6),
    Family(3, "online", 4),
    Family(1, "online", 6),
)
"""The self-play mix: the presets' option families (league, 2T, 2T+, fewer colours,
board 6 with 3T and 3T+, GP, classic, online) with their weights."""


def decided(g: Game) -> bool:
    """Whether the winner is known (the game is over, or an ``all-places`` game has its
    first player with every colour placed)."""
    return g.over or (g.end == "all-places" and first_complete_player(g) is not None)


def winner(g: Game) -> str | None:
    return g.winner if g.over else first_complete_player(g)


def encode(g: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The arrays of one position: rows (SLOTS, F), active colours, player slot per colour,
    sigma."""
    x = np.zeros((SLOTS, N_FEATURES), dtype=np.float32)
    r = rows(g)
    x[: len(r)] = r
    active = np.zeros(SLOTS, dtype=bool)
    member = np.full(SLOTS, -1, dtype=np.int8)
    for k, (_p, seats) in enumerate(g.setup.players.items()):
        for s in seats:
            member[s] = k
            active[s] = not g.finished[s]
    return x, active, member, 1.0 if g.end == "first-colour" else -1.0


def play_game(
    index: int,
    seed: int,
    sample: float,
    chooser,
    teacher=None,
    td_events: int = 0,
    families: tuple[Family, ...] = FAMILIES,
) -> tuple[list, list, list, list, list, int] | tuple[list, list, list, list, list, int, list]:
    """Self-play game ``index`` of a run: its sampled positions and who won (its family
    drawn from ``families`` by weight; returned as its index in the whole mix,
    :data:`FAMILIES`, whatever ``families`` is).

    With a ``teacher`` (an :class:`~games.engine.evaluator.Evaluator`), also every sampled
    position's TD target: the teacher's chances per player (``setup.players`` order) at
    the roll point ``td_events`` rolls later, or the one-hot outcome if the game was
    decided before (returned as a seventh list). The moves and dice do not depend on it."""
    rng = random.Random(f"{seed}/{index}")
    fam = families[_family_index(rng.random(), families)]
    fam_id = FAMILIES.index(fam)
    g = fam.new(first=rng.choice(colours_in_play(fam.board, fam.preset, None, fam.unused)))
    xs, acts, mems, sigs = [], [], [], []
    targets: list[list[float] | None] = []
    pending: list[tuple[int, int]] = []  # (sample index, the roll point of its target)
    n_players = len(g.setup.players)
    dice = rng.random
    while not decided(g) and g.events < 20_000:
        if teacher is not None:
            while pending and pending[0][1] <= g.events:
                k, _due = pending.pop(0)
                targets[k] = _teacher_vector(teacher, g)
        if dice() < sample:
            if teacher is not None:
                pending.append((len(xs), g.events + td_events))
                targets.append(None)
            x, a, m, sg = encode(g)
            xs.append(x)
            acts.append(a)
            mems.append(m)
            sigs.append(sg)
        c = g.turn_seat
        n = int(dice() * 6) + 1
        moves = g.legal(c, n)
        if not moves:
            g.push_raw(n)
            continue
        m = moves[0] if len(moves) == 1 else chooser(g, c, n, moves, rng)
        huff = None
        if g.huffing and g.huff_due(c, moves, m):
            huff = sorted(g.huff_targets(c, moves, m))[0]
        g.push_raw(n, m, huff)
    w = winner(g)
    y = list(g.setup.players).index(w) if w is not None else -1
    if teacher is None:
        return xs, acts, mems, sigs, [y] * len(xs), fam_id
    return xs, acts, mems, sigs, [y] * len(xs), fam_id, _td_targets(targets, y, n_players)


def _family_index(draw: float, families: tuple[Family, ...] = FAMILIES) -> int:
    """The family of a self-play game, drawn by weight with ``draw`` in [0, 1)."""
    left = draw * sum(f.weight for f in families)
    fam_id = 0
    for fam_id, fam in enumerate(families):  # noqa: B007
        left -= fam.weight
        if left < 0:
            break
    return fam_id


def _td_targets(targets: list[list[float] | None], y: int, n_players: int) -> list[list[float]]:
    """The TD targets padded to the slots: the one-hot outcome (winner ``y``) where the game
    was decided before a target's roll point."""
    outcome = [1.0 if i == y else 0.0 for i in range(n_players)]
    soft = [t if t is not None else outcome for t in targets]
    return [t + [0.0] * (SLOTS - len(t)) for t in soft]


def _teacher_vector(teacher, g: Game) -> list[float]:
    """The teacher's chance of every player (``setup.players`` order), summing to 1."""
    chances = teacher.win_chances(g)
    raw = [max(0.0, chances[seats[0]]) for seats in g.setup.players.values()]
    total = sum(raw)
    return [x / total for x in raw] if total > 0 else [1.0 / len(raw)] * len(raw)


def heuristic_chooser(epsilon: float = 0.05):
    bot = HeuristicBot()
    rnd = RandomBot()

    def choose(g, c, n, moves, rng):
        if rng.random() < epsilon:
            return rnd.choose(g, c, n, moves, rng)
        return bot.choose(g, c, n, moves, rng)

    return choose


def strong_chooser(network: Network, epsilon: float = 0.05):

    bot = StrongBot(Evaluator(network), depth=1)
    rnd = RandomBot()

    def choose(g, c, n, moves, rng):
        if rng.random() < epsilon:
            return rnd.choose(g, c, n, moves, rng)
        return bot.choose(g, c, n, moves, rng)

    return choose


# --- data ------------------------------------------------------------------------------------


def generate(
    work: Path,
    games: int,
    seed: int,
    chunk: int,
    sample: float,
    chooser,
    err: TextIO,
    teacher=None,
    td_events: int = 0,
    families: tuple[Family, ...] = FAMILIES,
) -> dict[str, np.ndarray]:
    """The positions of games ``0 … games-1``: chunks already in ``work`` are read back,
    the missing ones played and written (with a ``teacher``, the TD targets ``t`` too:
    :func:`play_game`). A run on some of the families only names its chunks after them
    (:func:`families_tag`), so two mixes never share a file; where every family is on
    board 4, the arrays keep four colour slots (the files keep six)."""
    parts = []
    t0 = time.process_time()
    tag = families_tag(families)
    slots = 6 if any(f.board == 6 for f in families) else 4
    for lo in range(0, games, chunk):
        hi = min(games, lo + chunk)
        path = work / f"data-{seed}{tag}-{lo:06d}-{hi:06d}.npz"
        if path.is_file():
            with np.load(path) as z:
                parts.append(_kept(_slots({k: z[k] for k in z.files}, slots)))
            continue
        part = _play_chunk(range(lo, hi), seed, sample, chooser, teacher, td_events, families)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, **part)
        tmp.replace(path)
        parts.append(_kept(_slots(part, slots)))
        print(
            f"games {hi}/{games}: {sum(len(p['y']) for p in parts)} positions, "
            f"{time.process_time() - t0:.0f} s CPU",
            file=err,
            flush=True,
        )
    return _concatenated(parts)


def _concatenated(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The chunks' arrays end to end (``np.concatenate``'s result), each chunk released
    once copied: ten million positions are held once, not twice, at the end."""
    n = sum(len(p["y"]) for p in parts)
    out = {k: np.empty((n, *v.shape[1:]), dtype=v.dtype) for k, v in parts[0].items()}
    lo = 0
    parts.reverse()
    while parts:
        part = parts.pop()
        m = len(part["y"])
        for k, v in part.items():
            out[k][lo : lo + m] = v
        lo += m
    return out


def _kept(part: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A chunk's positions without those of games stopped at the roll limit (no winner),
    chunk by chunk: a run of millions of positions never holds them twice."""
    keep = part["y"] >= 0
    return part if keep.all() else {k: v[keep] for k, v in part.items()}


def families_tag(families: tuple[Family, ...]) -> str:
    """The chunk files' tag of a run on ``families``: empty for the whole mix, else the
    families' labels (``-league-b4`` for ``league/b4``)."""
    if families == FAMILIES:
        return ""
    return "".join("-" + f.label.replace("/", "-").replace("+", "p") for f in families)


def families_named(labels: str) -> tuple[Family, ...]:
    """The families of ``--families`` (comma-separated labels, :attr:`Family.label`), in
    the mix's order; an unknown label is an error that names the known ones."""
    wanted = [x.strip() for x in labels.split(",") if x.strip()]
    known = {f.label: f for f in FAMILIES}
    unknown = [x for x in wanted if x not in known]
    if unknown or not wanted:
        raise ValueError(
            f"unknown families {', '.join(unknown) or '(none given)'}; known: " + ", ".join(known)
        )
    return tuple(f for f in FAMILIES if f.label in wanted)


def _single_colours(data: dict[str, np.ndarray], k: int) -> bool:
    """Whether every position of ``data`` has ``k`` colour slots, each its own player's."""
    member = data["member"].astype(np.int64)
    return member.shape[1] == k and bool((np.sort(member, axis=1) == np.arange(k)).all())


def _slots(part: dict[str, np.ndarray], slots: int) -> dict[str, np.ndarray]:
    """A chunk's arrays with their first ``slots`` colour slots (the rest are empty)."""
    if slots == SLOTS:
        return part
    out = dict(part)
    for k in ("x", "active", "member", "t"):
        if k in out:
            out[k] = np.ascontiguousarray(out[k][:, :slots])
    return out


def _play_chunk(
    indices: range,
    seed: int,
    sample: float,
    chooser,
    teacher,
    td_events: int,
    families: tuple[Family, ...] = FAMILIES,
) -> dict[str, np.ndarray]:
    """The sampled positions of the self-play games ``indices`` as the arrays of a chunk."""
    xs, acts, mems, sigs, ys, fams, gid, ts = [], [], [], [], [], [], [], []
    for i in indices:
        x, a, m, sg, y, fam, *t = play_game(i, seed, sample, chooser, teacher, td_events, families)
        if t:
            ts += t[0]
        xs += x
        acts += a
        mems += m
        sigs += sg
        ys += y
        fams += [fam] * len(x)
        gid += [i] * len(x)
    part = {
        "x": np.asarray(xs, dtype=np.float32).reshape(-1, SLOTS, N_FEATURES),
        "active": np.asarray(acts, dtype=bool).reshape(-1, SLOTS),
        "member": np.asarray(mems, dtype=np.int8).reshape(-1, SLOTS),
        "sigma": np.asarray(sigs, dtype=np.float32),
        "y": np.asarray(ys, dtype=np.int8),
        "family": np.asarray(fams, dtype=np.int8),
        "game": np.asarray(gid, dtype=np.int32),
    }
    if teacher is not None:
        part["t"] = np.asarray(ts, dtype=np.float32).reshape(-1, SLOTS)
    return part


# --- the loss --------------------------------------------------------------------------------


def loss_and_grad(
    net: Network | Ensemble,
    batch: dict[str, np.ndarray],
    want_grad: bool = True,
    td_weight: float = 0.0,
):
    """Mean log loss of the players' softmax on ``batch``, its gradients, the chances.

    The target is the outcome (player ``y`` won), or with ``td_weight`` w > 0 the mix
    ``w · t + (1 − w) · outcome`` of the TD target ``t`` (a distribution over the players)
    and the outcome: the loss is then the cross-entropy against that mix."""
    if net.joint and batch["x"].shape[1] > net.joint:  # a joint model: its colour slots only
        batch = _slots(batch, net.joint)
    x = batch["x"][:, :, : net.n_inputs]  # a model of the first n features reads those
    b, slots = x.shape[0], x.shape[1]  # six colour slots, or four (board 4 alone)
    s, acts = net.forward(x.reshape(b * slots, net.n_inputs).astype(np.float64))
    s = s.reshape(b, slots)
    sigma = batch["sigma"].astype(np.float64)[:, None]
    z = sigma * s
    member = batch["member"].astype(np.int64)
    mb = (member[:, :, None] == np.arange(slots)[None, None, :]) & batch["active"][:, :, None]
    a = np.where(mb, z[:, :, None], -np.inf)
    amax = a.max(axis=1)
    valid = np.isfinite(amax)
    amax0 = np.where(valid, amax, 0.0)
    e = np.where(mb, np.exp(np.where(mb, a - amax0[:, None, :], 0.0)), 0.0)
    tot = e.sum(axis=1)
    lse = amax0 + np.log(np.where(valid, tot, 1.0))
    w = e / np.where(valid, tot, 1.0)[:, None, :]
    logit = np.where(valid, sigma * lse, -np.inf)
    top = logit.max(axis=1, keepdims=True)
    pe = np.where(valid, np.exp(logit - top), 0.0)
    p = pe / pe.sum(axis=1, keepdims=True)
    y = batch["y"].astype(np.int64)
    onehot = np.zeros_like(p)
    onehot[np.arange(b), y] = 1.0
    if td_weight > 0.0:
        target = td_weight * batch["t"].astype(np.float64) + (1.0 - td_weight) * onehot
        logp = np.log(np.maximum(p, 1e-300))
        loss = float(-(target * np.where(target > 0, logp, 0.0)).sum(axis=1).mean())
    else:
        target = onehot
        py = p[np.arange(b), y]
        loss = float(-np.log(np.maximum(py, 1e-300)).mean())
    if not want_grad:
        return loss, None, p
    dlogit = (p - target) / b
    ds = np.einsum("bcp,bp->bc", w, dlogit)
    grads = net.backward(acts, ds.reshape(-1))
    return loss, grads, p


def init_network(
    seed: int, hidden: tuple[int, ...], features: int = N_FEATURES, joint: int = 0
) -> Network:
    """Random weights for a network on the first ``features`` features (with ``joint =
    k``, of the ``k`` colours of a position together: :meth:`Network.inputs`)."""
    rng = np.random.default_rng(seed)
    sizes = (features * (joint or 1), *hidden, 1)
    layers = []
    for i in range(len(sizes) - 1):
        w = rng.normal(0.0, 1.0 / math.sqrt(sizes[i]), (sizes[i], sizes[i + 1]))
        layers.append((w, np.zeros(sizes[i + 1])))
    return Network(layers, {"joint": joint} if joint else {})


def train(
    data: dict[str, np.ndarray],
    *,
    work: Path,
    seed: int,
    hidden: tuple[int, ...],
    epochs: int,
    batch: int,
    lr: float,
    l2: float,
    err: TextIO,
    start: Network | None = None,
    td_weight: float = 0.0,
    features: int = N_FEATURES,
    joint: int = 0,
    init_seed: int | None = None,
) -> tuple[Network, list[dict]]:
    """Fit the network to ``data`` (Adam), resuming from ``work/checkpoint.npz`` if it
    is there; returns the network and the curve (train / held-out loss per epoch).
    ``init_seed`` (default ``seed``) seeds the starting weights and the batches' order:
    two runs on the same games that differ only there give two members of an ensemble
    (``model.Ensemble``)."""
    init = seed if init_seed is None else init_seed
    held = data["game"] % 10 == 0  # every tenth game is held out
    rows = np.flatnonzero(~held)  # the training positions (batches index ``data``: no copy)
    te = {k: v[held] for k, v in data.items()}
    net = start or init_network(init, hidden, features, joint)
    m, v, first, curve = _resume(work / "checkpoint.npz", net, err)
    n = len(rows)
    step = first * math.ceil(n / batch)
    for epoch in range(first, epochs):
        t0 = time.process_time()
        order = np.random.default_rng([init, epoch]).permutation(n)
        rate = lr * (0.5 ** (epoch / max(1, epochs / 3)))
        total = 0.0
        for lo in range(0, n, batch):
            idx = rows[order[lo : lo + batch]]
            bt = {k: val[idx] for k, val in data.items()}
            loss, grads, _p = loss_and_grad(net, bt, td_weight=td_weight)
            total += loss * len(idx)
            step += 1
            net.layers = _adam_step(net.layers, grads, m, v, step, rate, l2)
        held_loss = evaluate_loss(net, te)
        curve.append({"epoch": epoch + 1, "train": total / n, "held_out": held_loss})
        print(
            f"epoch {epoch + 1}/{epochs}: train loss {total / n:.4f}, held-out log loss "
            f"{held_loss:.4f} ({time.process_time() - t0:.1f} s CPU)",
            file=err,
            flush=True,
        )
        _save_checkpoint(work, net, m, v, epoch + 1, curve)
    return net, curve


def _resume(ckpt: Path, net: Network, err: TextIO) -> tuple[list, list, int, list[dict]]:
    """Adam's moments, the first epoch to run and the curve so far: from the checkpoint
    (its weights put into ``net``) if there is one, else a fresh start."""
    m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]
    v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]
    if not ckpt.is_file():
        return m, v, 0, []
    with np.load(ckpt) as z:
        k = len(net.layers)
        net.layers = [(z[f"w{i}"], z[f"b{i}"]) for i in range(k)]
        m = [(z[f"mw{i}"], z[f"mb{i}"]) for i in range(k)]
        v = [(z[f"vw{i}"], z[f"vb{i}"]) for i in range(k)]
        first = int(z["epoch"])
        curve = json.loads(bytes(z["curve"]).decode())
    print(f"resumed at epoch {first}", file=err, flush=True)
    return m, v, first, curve


def _adam_step(layers: list, grads: list, m: list, v: list, step: int, rate: float, l2: float):
    """One Adam update of every layer (``m`` and ``v`` updated in place); the new layers."""
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    new_layers = []
    for i, ((w, b), (gw, gb)) in enumerate(zip(layers, grads, strict=True)):
        gw = gw + l2 * w
        mw, mbb = m[i]
        vw, vb = v[i]
        mw = beta1 * mw + (1 - beta1) * gw
        mbb = beta1 * mbb + (1 - beta1) * gb
        vw = beta2 * vw + (1 - beta2) * gw * gw
        vb = beta2 * vb + (1 - beta2) * gb * gb
        m[i], v[i] = (mw, mbb), (vw, vb)
        c1 = 1 - beta1**step
        c2 = 1 - beta2**step
        w = w - rate * (mw / c1) / (np.sqrt(vw / c2) + eps)
        b = b - rate * (mbb / c1) / (np.sqrt(vb / c2) + eps)
        new_layers.append((w, b))
    return new_layers


def _save_checkpoint(work: Path, net: Network, m: list, v: list, epochs: int, curve: list) -> None:
    """The weights, Adam's moments and the curve after ``epochs`` epochs (written atomically)."""
    arrays = {"epoch": np.asarray(epochs)}
    for i, ((w, b), (mw, mbb), (vw, vb)) in enumerate(zip(net.layers, m, v, strict=True)):
        arrays.update({f"w{i}": w, f"b{i}": b, f"mw{i}": mw, f"mb{i}": mbb})
        arrays.update({f"vw{i}": vw, f"vb{i}": vb})
    arrays["curve"] = np.frombuffer(json.dumps(curve).encode(), dtype=np.uint8)
    tmp = work / "checkpoint.tmp.npz"
    np.savez(tmp, **arrays)
    tmp.replace(work / "checkpoint.npz")


def evaluate_loss(net: Network, data: dict[str, np.ndarray], batch: int = 8192) -> float:
    n = len(data["y"])
    if not n:
        return float("nan")
    total = 0.0
    for lo in range(0, n, batch):
        part = {k: v[lo : lo + batch] for k, v in data.items()}
        loss, _g, _p = loss_and_grad(net, part, want_grad=False)
        total += loss * len(part["y"])
    return total / n


# --- the command -----------------------------------------------------------------------------


def _chooser(policy: str):
    """Who plays the self-play games: the heuristic, or a model file as the strong player."""
    if policy == "heuristic":
        return heuristic_chooser()
    return strong_chooser(Network.load(Path(policy)))


def _teacher(args: argparse.Namespace) -> tuple[Evaluator | None, int, float]:
    """The TD targets' teacher (``None``: outcomes only), ``--td-events``, ``--td-weight``."""
    td_events = getattr(args, "td_events", 0) or 0
    td_weight = getattr(args, "td_weight", 0.0) or 0.0
    if td_events > 0:
        teacher_net = Network.load(args.teacher) if args.teacher else shipped_network()
        return Evaluator(teacher_net, "teacher"), td_events, td_weight
    if td_weight > 0:
        raise SystemExit("--td-weight needs --td-events")
    return None, td_events, td_weight


def run(args: argparse.Namespace, out: TextIO) -> int:
    err = sys.stderr
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    chooser = _chooser(args.policy)
    teacher, td_events, td_weight = _teacher(args)
    labels = getattr(args, "families", None)
    try:
        families = families_named(labels) if labels else FAMILIES
    except ValueError as exc:
        raise SystemExit(f"--families: {exc}") from None
    data = generate(
        work,
        args.games,
        args.seed,
        args.chunk,
        args.sample,
        chooser,
        err,
        teacher,
        td_events,
        families,
    )
    print(f"{len(data['y'])} positions from {args.games} games", file=err, flush=True)
    joint = getattr(args, "joint", 0) or 0
    if joint and not _single_colours(data, joint):
        raise SystemExit(
            f"--joint {joint}: every position must have {joint} single colours (board 4: "
            "--families league/b4 or another family of four single colours)"
        )
    start = Network.load(args.start) if args.start else None
    net, curve = train(
        data,
        work=work,
        seed=args.seed,
        hidden=hidden,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        l2=args.l2,
        err=err,
        start=start,
        td_weight=td_weight,
        features=getattr(args, "features", None) or N_FEATURES,
        joint=joint,
        init_seed=getattr(args, "init_seed", None),
    )
    net.meta = {
        "name": args.out.stem,
        "trained": True,
        "games": args.games,
        "seed": args.seed,
        **({"init_seed": args.init_seed} if getattr(args, "init_seed", None) is not None else {}),
        "policy": args.policy if args.policy == "heuristic" else Path(args.policy).name,
        **({"families": [f.label for f in families]} if families != FAMILIES else {}),
        "hidden": list(hidden),
        **({"joint": net.joint} if net.joint else {}),
        "epochs": args.epochs,
        "positions": len(data["y"]),
        **({"td_events": td_events, "td_weight": td_weight} if td_events > 0 else {}),
        "curve": curve,
    }
    blob = net.to_bytes()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(blob)
    digest = hashlib.sha256(blob).hexdigest()
    print(json.dumps({"file": str(args.out), "sha256": digest, "bytes": len(blob)}), file=out)
    return 0
