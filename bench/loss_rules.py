"""Counting rules for the chances lost, judged on detailed mixed games (issue #37, session 17).

    python bench/loss_rules.py [--details var/bench-calibration-details.jsonl] [--dev 150]
                               [--rules raw,shipped,...] [--random-heuristic M,H]
    python bench/loss_rules.py --levels      # the shipped levels, in order per pair

Reads the mixed league games ``bench/analysis.py --details N`` keeps (game ``i``: a random,
a heuristic, a strong and a second heuristic player, seats rotated, seed 50,000 + ``i``;
every decision with each option's value), applies each counting rule to every player's
decisions of a game, and prints per rule, on the development games (the first ``--dev``)
and on the held-out rest apart:

* the mean counted loss per game of each player kind (percentage points; heuristic: the
  mean of its two seats), and the differences random − heuristic and strong − heuristic
  with their 95 % intervals (paired by game), against the paired win-rate differences of
  real games (random − heuristic: ``bench/bots.py --matches
  random-heuristic,heuristic-heuristic``; strong − heuristic: +0.9 ± 1.1, docs/engine.md,
  10,000 games): *agrees* when the two differ by less than the two half-widths combined;
* how often one game puts the counted loss per decision in order (random above heuristic
  above strong; each heuristic seat one comparison), and each of the two pairs apart.

No analysis is run: the rules are re-evaluated in seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KINDS = ("random", "heuristic", "strong")


def load(path: Path) -> list[dict]:
    games = {}
    for line in path.read_text().splitlines():
        try:
            g = json.loads(line)
        except ValueError:
            continue
        games[g["seed"]] = g
    return [games[s] for s in sorted(games)]


def player_decisions(g: dict) -> dict[str, list[tuple[str, bool, int, int, list[float]]]]:
    """Per player (name) its decisions: (phase, endgame, played, best, values in mw)."""
    out: dict[str, list] = {p: [] for p in g["players"]}
    for player, ph, end, played, best, values in g["decisions"]:
        out[player].append((ph, bool(end), played, best, values))
    return out


def kind_of(g: dict) -> dict[str, str]:
    """player name -> bot kind."""
    return {g["colours"][c]: k for c, k in g["bots"].items()}


def raw_losses(ds) -> list[float]:
    return [max(0.0, v[b] - v[p]) for _ph, _e, p, b, v in ds]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


_MEMO: dict = {}


def counted(rule, g: dict, player: str, ds) -> list[float]:
    key = (id(rule), g["seed"], player)
    if key not in _MEMO:
        _MEMO[key] = rule(ds)
    return _MEMO[key]


def judge(games: list[dict], rule, truth: dict) -> dict:
    per = {k: [] for k in KINDS}
    rh = hs = both = pairs = 0
    for g in games:
        kinds = kind_of(g)
        totals, rates = {}, {}
        for player, ds in player_decisions(g).items():
            got = counted(rule, g, player, ds)
            totals[player] = sum(got) / 10.0  # mw -> percentage points
            rates[player] = sum(got) / max(1, len(ds))
        by = {k: [p for p in kinds if kinds[p] == k] for k in KINDS}
        for k in KINDS:
            per[k].append(sum(totals[p] for p in by[k]) / len(by[k]))
        r, s = by["random"][0], by["strong"][0]
        for h in by["heuristic"]:
            pairs += 1
            a = rates[r] > rates[h]
            b = rates[h] > rates[s] or rates[h] == rates[s] == 0.0
            rh += a
            hs += b
            both += a and b
    out = {"n": len(games), "mean": {k: sum(v) / len(v) for k, v in per.items()}}
    for a, b in (("random", "heuristic"), ("strong", "heuristic")):
        # a's winning chance over b's = b's loss − a's loss, game by game
        m, h = mean_ci([y - x for x, y in zip(per[a], per[b], strict=True)])
        want, half = truth[(a, b)]
        out[(a, b)] = (m, h, abs(m - want) <= math.hypot(h, half))
    out["order"] = (both, rh, hs, pairs)
    return out


def line(name: str, res: dict) -> str:
    m = res["mean"]
    parts = [f"{name:>34} n={res['n']:>4}: R {m['random']:5.1f} H {m['heuristic']:4.2f} "]
    parts.append(f"S {m['strong']:4.2f}")
    for pair in (("random", "heuristic"), ("strong", "heuristic")):
        d, h, ok = res[pair]
        parts.append(f" | {pair[0][0].upper()}−H {d:+6.2f} ± {h:4.2f} {'ok' if ok else 'NO'}")
    both, rh, hs, n = res["order"]
    parts.append(f" | in order {both / n:4.0%} (R>H {rh / n:4.0%}, H>S {hs / n:4.0%})")
    return "".join(parts)


# --- empirical Bayes per player-game (tried first; not shipped) ------------------------

_T = np.arange(501, dtype=float)
_PI = [i / 20 for i in range(20)]
_MU = [2.0 * 1.35**i for i in range(19)]


def _eb_priors() -> np.ndarray:
    cols = []
    for pi in _PI:
        for mu in _MU:
            w = np.exp(-_T[1:] / mu)
            cols.append(np.concatenate(([pi], (1.0 - pi) * w / w.sum())))
    return np.array(cols).T


_EB = _eb_priors()
_EB_SD = {True: np.full_like(_T, 25.0), False: np.where(_T < 30, 12.0, 25.0)}
_EB_ZERO = {
    e: np.array([0.5 * math.erfc(t / math.sqrt(2.0)) for t in (_T / sd).tolist()])
    for e, sd in _EB_SD.items()
}


def _eb_likelihood(x: float, endgame: bool, agree: float | None) -> np.ndarray:
    """P(measured loss x | true loss t) over ``_T``: normal error (12 mw below 30, 25 from
    30 on and in race endgames) censored at 0; ``agree``: P(measured 0 | true 0), a
    positive loss then half-normal with 12 mw."""
    sd = _EB_SD[endgame]
    if x <= 0.0:
        out = _EB_ZERO[endgame].copy()
        if agree is not None:
            out[0] = agree
        return out
    z = (x - _T) / sd
    out = np.exp(-0.5 * z * z) / (sd * math.sqrt(2 * math.pi))
    if agree is not None:
        out[0] = (1 - agree) * 2 * math.exp(-0.5 * (x / 12) ** 2) / (12 * math.sqrt(2 * math.pi))
    return out


def eb_losses(ds, agree: float | None = None, clamp: bool = True) -> list[float]:
    """Each loss's posterior mean under a prior (a point mass at 0 and an exponential)
    fitted to the player's own losses of the game (all grid priors weighed by their
    marginal likelihood)."""
    raw = raw_losses(ds)
    if not raw:
        return []
    lik = np.array([_eb_likelihood(x, d[1], agree) for x, d in zip(raw, ds, strict=True)])
    marg = lik @ _EB
    ll = np.log(np.maximum(marg, 1e-300)).sum(axis=0)
    w = np.exp(ll - ll.max())
    post = ((lik * _T) @ _EB / np.maximum(marg, 1e-300)) @ (w / w.sum())
    return [min(p, x) if clamp else float(p) for p, x in zip(post.tolist(), raw, strict=True)]


def candidate_rules() -> dict:
    from games.engine.analysis import counted_loss_mw
    from games.engine.analysis import counting as c

    def raw(ds):
        return raw_losses(ds)

    def shipped(ds):
        return [counted_loss_mw(x, d[1]) for x, d in zip(raw_losses(ds), ds, strict=True)]

    def steadiness(sd):
        def rule(ds):
            old = c.OPTION_SD_MW
            c.OPTION_SD_MW = sd
            try:
                return c.counted_losses_mw([(d[4], d[2], d[1]) for d in ds])
            finally:
                c.OPTION_SD_MW = old

        return rule

    out = {
        "raw": raw,
        "shipped-24mw": shipped,
        "eb": lambda ds: eb_losses(ds),
        "eb-unclamped": lambda ds: eb_losses(ds, clamp=False),
        "eb-agree0.9": lambda ds: eb_losses(ds, 0.9),
    }
    for sd in (8.5, 12.0, 17.0, 24.0):
        out[f"choice-sd{sd:g}"] = steadiness(sd)
    return out


def main() -> None:

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--details", type=Path, default=ROOT / "var/bench-calibration-details.jsonl")
    ap.add_argument("--dev", type=int, default=150, help="development games (the first)")
    ap.add_argument("--rules", default="", help="comma-separated rule names (default: all)")
    ap.add_argument(
        "--random-heuristic",
        default="-24.5,3.8",
        help="paired win-rate difference random − heuristic and its 95 %% half-width, points",
    )
    ap.add_argument(
        "--strong-heuristic",
        default="0.9,1.1",
        help="paired win-rate difference strong − heuristic and its 95 %% half-width, points "
        "(the shipped player's, 10,000 games; another model's strong player: its own)",
    )
    ap.add_argument(
        "--bands",
        default="",
        help="rules whose per-decision rate gets levels fitted on the development games",
    )
    ap.add_argument(
        "--levels",
        action="store_true",
        help="the shipped levels (BANDS, on the counted loss per decision) in order per pair",
    )
    args = ap.parse_args()
    if args.levels:
        games = load(args.details)
        levels(games[: args.dev], games[args.dev :])
        return
    rm, rhw = (float(x) for x in args.random_heuristic.split(","))
    sm, shw = (float(x) for x in args.strong_heuristic.split(","))
    truth = {("random", "heuristic"): (rm, rhw), ("strong", "heuristic"): (sm, shw)}
    games = load(args.details)
    dev, held = games[: args.dev], games[args.dev :]
    rules = candidate_rules()
    names = [n for n in args.rules.split(",") if n] or list(rules)
    print(f"{len(games)} games: development {len(dev)}, held out {len(held)}; truth {truth}")
    for name in names:
        print(line(name + " dev", judge(dev, rules[name], truth)))
        if held:
            print(line(name + " held", judge(held, rules[name], truth)), flush=True)
    if args.bands:
        from games.engine.analysis import BANDS

        shipped_edges = tuple(upper for _name, upper in BANDS[:3])
        for name in args.bands.split(","):
            rd, rh = rates(dev, rules[name]), rates(held, rules[name])
            edges, res = best_edges(rd)
            parts = [f"levels on {name}: edges {edges} from the development games: dev"]
            for rows, got in ((rd, res), (rh, band_order(rh, edges))):
                both, rhc, hsc, n = got
                parts.append(f"{both}/{n} = {both / n:.0%} (R<H {rhc / n:.0%}, H<S {hsc / n:.0%})")
                if rows is rd:
                    parts.append("held")
            if name == "raw":
                for label, rows in (("dev", rd), ("held", rh)):
                    both, rhc, hsc, n = band_order(rows, shipped_edges)
                    parts.append(
                        f"| shipped BANDS {shipped_edges} {label} {both}/{n} = {both / n:.0%} "
                        f"(R<H {rhc / n:.0%}, H<S {hsc / n:.0%})"
                    )
            print(" ".join(parts), flush=True)


def levels(dev: list[dict], held: list[dict]) -> None:
    """The shipped levels (``BANDS`` on the counted loss per decision, ``band_for``) on the
    development and the held-out games: of every pair of players of different kinds in one
    game (random–heuristic and heuristic–strong once per heuristic seat, random–strong once),
    how often the better kind's level is strictly higher (a tie is not in order); how often
    all three are (each heuristic seat); and where each kind's games fall."""
    from games.engine.analysis import BANDS, band_for

    names = [name for name, _upper in BANDS]  # best first
    shipped = candidate_rules()["choice-sd12"]
    for label, games in (("development", dev), ("held out", held)):
        if not games:  # --dev 0: every game held out (or a file of fewer than --dev games)
            print(f"levels: no {label} games")
            continue
        where: dict[str, list[int]] = {k: [0] * len(names) for k in KINDS}
        pairs = {"random<heuristic": [0, 0], "heuristic<strong": [0, 0], "random<strong": [0, 0]}
        triples = [0, 0]
        for g in games:
            kinds = kind_of(g)
            rank: dict[str, list[int]] = {k: [] for k in KINDS}
            for player, ds in player_decisions(g).items():
                band = band_for(sum(shipped(ds)) / len(ds) if ds else None, len(ds))
                if band is None:
                    continue
                rank[kinds[player]].append(len(names) - names.index(band))  # higher: better
                where[kinds[player]][names.index(band)] += 1
            r, s = rank["random"], rank["strong"]
            for h in rank["heuristic"]:
                for key, lo, hi in (("random<heuristic", r, [h]), ("heuristic<strong", [h], s)):
                    if lo and hi:
                        pairs[key][0] += lo[0] < hi[0]
                        pairs[key][1] += 1
                if r and s:
                    triples[0] += r[0] < h < s[0]
                    triples[1] += 1
            if r and s:
                pairs["random<strong"][0] += r[0] < s[0]
                pairs["random<strong"][1] += 1
        ok, n = (sum(v[i] for v in pairs.values()) for i in (0, 1))
        print(
            f"levels on {len(games)} {label} games: pairs in order {ok}/{n} = {ok / n:.1%} ("
            + ", ".join(f"{k} {a / b:.1%}" for k, (a, b) in pairs.items())
            + f"); all three in order {triples[0]}/{triples[1]} = {triples[0] / triples[1]:.1%}"
        )
        for kind in KINDS:
            total = sum(where[kind]) or 1
            print(
                f"  {kind:9} "
                + ", ".join(f"{n} {c / total:.0%}" for n, c in zip(names, where[kind], strict=True))
            )


def rates(games: list[dict], rule) -> list[dict[str, float]]:
    """Per game, per kind, the counted loss per decision (mw) of each seat (heuristic: both)."""
    out = []
    for g in games:
        kinds = kind_of(g)
        row: dict[str, list[float]] = {k: [] for k in KINDS}
        for player, ds in player_decisions(g).items():
            if len(ds) < 10:  # MIN_DECISIONS_FOR_BAND: no level
                row[kinds[player]].append(float("nan"))
                continue
            row[kinds[player]].append(sum(counted(rule, g, player, ds)) / len(ds))
        out.append(row)
    return out


def band_order(rows: list[dict], edges: tuple[float, float, float]) -> tuple[int, int, int, int]:
    """With levels strong ≤ e0 < good ≤ e1 < fair ≤ e2 < weak: pairs (each heuristic seat) in
    strict order, random < heuristic, heuristic < strong apart, and the pairs."""

    def level(x: float) -> int:
        if x != x:
            return -1
        return 3 if x <= edges[0] else 2 if x <= edges[1] else 1 if x <= edges[2] else 0

    both = rh = hs = n = 0
    for row in rows:
        r, s = level(row["random"][0]), level(row["strong"][0])
        for h in map(level, row["heuristic"]):
            n += 1
            a, b = -1 < r < h, -1 < h < s
            rh += a
            hs += b
            both += a and b
    return both, rh, hs, n


def best_edges(rows: list[dict]) -> tuple[tuple[float, float, float], tuple]:
    """The edges (from the rates' own quantiles) that put the most pairs in strict order."""
    xs = sorted(x for row in rows for v in row.values() for x in v if x == x)
    qs = sorted({round(xs[int(f / 100 * (len(xs) - 1))], 2) for f in range(0, 101)})
    best = None
    for i, a in enumerate(qs):
        for j in range(i + 1, len(qs)):
            b = qs[j]
            for c in qs[j + 1 :]:
                res = band_order(rows, (a, b, c))
                if best is None or res[0] > best[1][0]:
                    best = ((a, b, c), res)
    return best


if __name__ == "__main__":
    main()
