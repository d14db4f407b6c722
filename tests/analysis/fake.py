"""A hand-made analysis in the ``maedn-analysis/1`` shape (/tmp/analysis-schema.md, the
core's docs/analysis.md), for tests of storing and showing analyses without spending
seconds of rollouts: a decision at every 7th event with a move, losses cycling through
no mark, inaccuracy, mistake and blunder."""

from __future__ import annotations

import json

from games.engine.analysis import ANALYSIS_FORMAT, THRESHOLDS

LOSSES = (0.0, 0.04, 0.08, 0.2)


def mark_of(loss: float) -> str | None:
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= THRESHOLDS[name]:
            return name
    return None


def fake_analysis(log, *, rollouts: int = 200, seed: int = 0, progress=None) -> dict:
    data = json.loads(log) if isinstance(log, str | bytes) else log
    players = list(data["players"])
    colours = {c: p for p, held in data["players"].items() for c in held}
    decisions, graph = [], [{"event": -1, "p": {p: 1 / len(players) for p in players}}]
    for i, event in enumerate(data["events"]):
        if "move" not in event or i % 7:
            continue
        player = colours[event["colour"]]
        loss = LOSSES[len(decisions) % len(LOSSES)]
        win = 0.3 + 0.4 * ((i * 37) % 100) / 100
        p = {q: win if q == player else (1 - win) / (len(players) - 1) for q in players}
        decisions.append(
            {
                "event": i,
                "colour": event["colour"],
                "player": player,
                "die": event["die"],
                "played": "5→9",
                "best": "B→0" if loss else "5→9",
                "options": [
                    {"move": "B→0", "win": win + loss, "half_width": 0.02, "p": p},
                    {"move": "5→9", "win": win, "half_width": 0.02, "p": p},
                ]
                if loss
                else [{"move": "5→9", "win": win, "half_width": 0.02, "p": p}],
                "loss": loss,
                "mark": mark_of(loss),
            }
        )
        graph.append({"event": i, "p": p})
    summary = {}
    for p in players:
        mine = [d for d in decisions if d["player"] == p]
        summary[p] = {
            "decisions": len(mine),
            "average_loss": sum(d["loss"] for d in mine) / len(mine) if mine else 0.0,
            "inaccuracies": sum(d["mark"] == "inaccuracy" for d in mine),
            "mistakes": sum(d["mark"] == "mistake" for d in mine),
            "blunders": sum(d["mark"] == "blunder" for d in mine),
            "luck": {
                "start": 0.5,
                "end": 1.0,
                "dice": 0.6,
                "own_choices": -0.05,
                "others_choices": -0.05,
                "rolls": 100,
                "sixes": 18,
                "sixes_expected": 16.67,
                "sixes_z": 0.36,
                "captures": 5,
                "capture_chances": 7,
                "capture_chances_expected": 6.5,
            },
        }
    return {
        "format": ANALYSIS_FORMAT,
        "rollouts": rollouts,
        "seed": seed,
        "policy": "heuristic",
        "confidence": 0.95,
        "thresholds": dict(THRESHOLDS),
        "players": players,
        "colours": colours,
        "complete": True,
        "decisions": decisions,
        "win_probability": graph,
        "summary": summary,
        "seconds": 0.01,
    }
