"""A hand-made analysis in the ``maedn-analysis/5`` shape (docs/analysis.md, "Output"), for
tests of storing and showing analyses without the model: a decision at every 7th event with
a move, losses cycling through no mark, inaccuracy, mistake and blunder, the graph after
every event, a luck split that adds up."""

from __future__ import annotations

import json

from games.engine.analysis import ANALYSIS_FORMAT, THRESHOLDS_MW, mark_for

LOSSES = (0.0, 0.04, 0.08, 0.2)
MARGIN_MW = 5.0


def fake_analysis(log, *, progress=None, **_ignored) -> dict:
    data = json.loads(log) if isinstance(log, str | bytes) else log
    players = list(data["players"])
    colours = {c: p for p, held in data["players"].items() for c in held}
    even = {p: 1 / len(players) for p in players}
    decisions, graph = [], [{"event": -1, "p": even}]
    for i, event in enumerate(data["events"]):
        p = even
        if "move" in event and not i % 7:
            player = colours[event["colour"]]
            loss = LOSSES[len(decisions) % len(LOSSES)]
            win = 0.3 + 0.4 * ((i * 37) % 100) / 100
            p = {q: win if q == player else (1 - win) / (len(players) - 1) for q in players}
            best = {q: win + loss if q == player else v - loss for q, v in p.items()}
            decisions.append(
                {
                    "event": i,
                    "colour": event["colour"],
                    "player": player,
                    "die": event["die"],
                    "played": "5→9",
                    "best": "B→0" if loss else "5→9",
                    "options": [
                        {"move": "B→0", "win": win + loss, "p": best},
                        {"move": "5→9", "win": win, "p": p},
                    ]
                    if loss
                    else [{"move": "5→9", "win": win, "p": p}],
                    "loss": loss,
                    "loss_mw": round(1000 * loss, 1),
                    "interval_mw": [round(1000 * loss - 5, 1), round(1000 * loss + 5, 1)],
                    "endgame": False,
                    "mark": mark_for(1000 * loss, MARGIN_MW),
                }
            )
        graph.append({"event": i, "p": p})
    summary = {}
    for n, p in enumerate(players):
        mine = [d for d in decisions if d["player"] == p]
        loss = sum(d["loss"] for d in mine)
        end = 1.0 if n == 0 else 0.0
        luck = end - 0.5 + loss - 0.05 * (1 if n else -1)
        summary[p] = {
            "decisions": len(mine),
            "loss_mw": round(1000 * loss, 1),
            "error_rate": round(1000 * loss / len(mine), 1) if mine else None,
            "average_loss": round(loss / len(mine), 4) if mine else 0.0,
            "band": "solid" if mine else None,
            "inaccuracies": sum(d["mark"] == "inaccuracy" for d in mine),
            "mistakes": sum(d["mark"] == "mistake" for d in mine),
            "blunders": sum(d["mark"] == "blunder" for d in mine),
            "luck": {
                "start": 0.5,
                "luck": luck,
                "luck_dice": luck - 0.02,
                "lookahead": 0.02,
                "own_skill": -loss,
                "others_skill": 0.05 * (1 if n else -1),
                "end": end,
                "luck_adjusted": end - luck,
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
        "model": "fake",
        "plies": 1,
        "players": players,
        "colours": colours,
        "complete": True,
        "variant": None,
        "start": {"p": even},
        "marks": {
            "thresholds_mw": dict(THRESHOLDS_MW),
            "loss_sd_mw": 2.0,
            "loss_sd_large_mw": 3.0,
            "large_loss_mw": 30.0,
            "loss_sd_endgame_mw": 20.0,
            "interval_confidence": 0.9,
            "family_confidence": 0.95,
            "margin_mw": MARGIN_MW,
            "margin_endgame_mw": 10 * MARGIN_MW,
        },
        "decisions": decisions,
        "win_probability": graph,
        "summary": summary,
        "seconds": 0.01,
    }
