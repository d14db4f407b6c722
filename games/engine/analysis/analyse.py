"""``analyse(log)``: the whole analysis of one game as a JSON-ready dict.

The shape is the interface with the product (docs/analysis.md, "Output"): the
decisions with their options, the win-probability graph, and a per-player summary
with the luck figures.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from ..moves import IllegalMove
from ..variants import VARIANTS, Variant
from .decisions import THRESHOLDS, decision_entry, estimate, walk
from .luck import capture_stats, decompose, luck_summary
from .policy import Policy, default_policy
from .stats import CONFIDENCE, wilson_half_width

ANALYSIS_FORMAT = "maedn-analysis/1"


def log_variant(log: object) -> Variant | None:
    """The platform variant a log's ``meta.variant`` names (a live room's "Quick" or
    "First capture"), or None: the game is then judged by that variant's end."""
    try:
        data = log if isinstance(log, dict) else json.loads(log)  # type: ignore[arg-type]
        key = (data.get("meta") or {}).get("variant")
        return VARIANTS.get(key) if isinstance(key, str) else None
    except (ValueError, TypeError, AttributeError):
        return None  # not readable here: walk() reports what is wrong with it


def analyse(
    log: object,
    *,
    rollouts: int = 200,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    policy: Policy | None = None,
) -> dict[str, Any]:
    """Analyse a game log (dict, JSON text or bytes — what ``validate`` takes).

    Deterministic for the same ``(log, rollouts, seed)``. ``progress(done, total)``
    is called now and then (rollouts done of all). Raises
    :class:`~games.engine.InvalidLog` for an invalid log and ``ValueError`` for bad
    arguments.
    """
    if type(rollouts) is not int or rollouts < 2:
        raise ValueError(f"rollouts must be a whole number of at least 2, not {rollouts!r}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed must be a whole number ≥ 0, not {seed!r}")
    policy = policy or default_policy()
    t0 = time.perf_counter()
    variant = log_variant(log)
    try:
        w = walk(log, policy, variant)
    except IllegalMove:  # the log goes on past the variant's end: not that variant's game
        variant = None
        w = walk(log, policy)
    start_rollouts = estimate(w, rollouts, seed, policy, progress)
    players = w.players
    names = w.game0.names
    setup = w.game0.setup
    start = start_rollouts.shares(players)

    decisions = []
    graph: list[dict[str, Any]] = [{"event": -1, "p": _rounded(start)}]
    points = []
    for d in w.decisions:
        entry = decision_entry(d, names[d.seat], players)
        decisions.append(entry)
        best = next(o for o in entry["options"] if o["move"] == entry["best"])
        played = next(o for o in entry["options"] if o["move"] == entry["played"])
        points.append((d.player, best["p"], played["p"]))
        graph.append({"event": d.event, "p": played["p"]})

    final = w.final
    end = None
    if final.over:
        end = {p: 1.0 if p == final.winner else 0.0 for p in players}
        last = final.events - 1
        if graph[-1]["event"] == last:
            graph[-1] = {"event": last, "p": end}
        else:
            graph.append({"event": last, "p": end})

    luck = luck_summary(
        players,
        decompose(players, start, points, end),
        capture_stats(w.game0, w.rolls, players),
    )
    summary = {}
    for p in players:
        mine = [e for e in decisions if e["player"] == p]
        summary[p] = {
            "decisions": len(mine),
            "average_loss": round(sum(e["loss"] for e in mine) / len(mine), 4) if mine else 0.0,
            "inaccuracies": sum(e["mark"] == "inaccuracy" for e in mine),
            "mistakes": sum(e["mark"] == "mistake" for e in mine),
            "blunders": sum(e["mark"] == "blunder" for e in mine),
            "luck": luck[p],
        }
    return {
        "format": ANALYSIS_FORMAT,
        "rollouts": rollouts,
        "seed": seed,
        "policy": policy.name,
        "confidence": CONFIDENCE,
        "thresholds": dict(THRESHOLDS),
        "players": list(players),
        "colours": {names[s]: setup.player_of(s) for s in setup.in_play},
        "complete": final.over,
        "variant": variant.key if variant else None,  # the platform variant judged by
        "start": {
            "p": _rounded(start),
            "half_width": {
                p: round(wilson_half_width(start[p] * rollouts, rollouts), 4) for p in players
            },
        },
        "decisions": decisions,
        "win_probability": graph,
        "summary": summary,
        "seconds": round(time.perf_counter() - t0, 2),
    }


def _rounded(p: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in p.items()}
