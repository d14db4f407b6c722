"""What the pages show of a stored move analysis (``GameAnalysis.data``, the engine's
``maedn-analysis/5`` dict): the replay viewer's analysis data and its win-probability graph.

Replay steps count events played: step ``k`` shows the board after event ``k - 1``, so the
analysis' decision at event ``e`` belongs to step ``e + 1`` and its graph point too (the
start, event ``-1``, is step 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.board import DEFAULT_COLOURS, seat_colours

#: the graph's drawing area (SVG user units); the page scales it to its width
WIDTH, HEIGHT, LEFT, TOP, BOTTOM = 600, 180, 40, 8, 22  # LEFT: room for "100 %"
MARKS = ("inaccuracy", "mistake", "blunder")
#: a dash pattern per line, so the players' lines differ without their colours too
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


def seat_players(analysis: Mapping[str, Any], log_colours: Sequence[str] | None, board: int):
    """Board seat (0-based) → the log's player at that seat, from the analysis' colours."""
    names = seat_colours(board, log_colours)
    colours = analysis.get("colours") or {}
    return {i: colours[name] for i, name in enumerate(names) if name in colours}


def _x(step: int, steps: int) -> float:
    return round(LEFT + (WIDTH - LEFT - 4) * step / max(1, steps), 1)


def _y(p: float) -> float:
    return round(TOP + (HEIGHT - TOP - BOTTOM) * (1 - p), 1)


def viewer_data(
    analysis: Mapping[str, Any],
    *,
    steps: int,
    board: int,
    seats: Mapping[Any, str],
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The replay viewer's analysis: players (display name, line class), the graph's
    points and SVG polylines (a point after every event), and per step the decision made
    there (options best first, each with the mover's chance to win and the milli-wins it
    loses against the best; the played one and the mark), the marked moves in order (the
    page's list of mistakes), plus how the marks were set.

    ``steps`` is the number of events of the log, ``names`` maps the log's player names to
    the names to show (a league's players), ``seats`` board seat → the log's player there
    (``GameAnalysis.seats``, stored with the analysis; JSON keys are strings).
    """
    names = names or {}
    players = list(analysis.get("players") or [])
    shown = _shown_players(players, seats, board, names)
    points = _points(analysis, players, steps)
    lines = []
    for i, player in enumerate(shown):
        coords = " ".join(f"{_x(s, steps)},{_y(ps[i])}" for s, ps in points)
        lines.append({**player, "points": coords})
    decisions = {
        str(int(d["event"]) + 1): _decision(d, names) for d in analysis.get("decisions") or []
    }
    return {
        "marked": _marked(decisions),
        "players": shown,
        "points": points,
        "decisions": decisions,
        "model": analysis.get("model"),
        "plies": analysis.get("plies"),
        **_marks(analysis.get("marks") or {}),
        "decision_count": len(analysis.get("decisions") or []),
        "graph": {
            "width": WIDTH,
            "height": HEIGHT,
            "left": LEFT,
            "top": TOP,
            "bottom": HEIGHT - BOTTOM,
            "right": WIDTH - 4,
            "steps": steps,
            "lines": lines,
            "ticks": [(_y(v), f"{round(v * 100)} %") for v in (0.0, 0.25, 0.5, 0.75, 1.0)],
        },
    }


def _shown_players(
    players: list[str], seats: Mapping[Any, str], board: int, names: Mapping[str, str]
) -> list[dict[str, str]]:
    """Each player's display name, line class (the colour of its first seat) and dashes."""
    by_seat = {int(seat): player for seat, player in seats.items()}
    css: dict[str, str] = {}
    for seat, player in sorted(by_seat.items()):
        css.setdefault(player, DEFAULT_COLOURS[board][seat])
    return [
        {
            "name": names.get(p, p),
            "css": css.get(p, "other"),
            "dash": DASHES[i % len(DASHES)],
        }
        for i, p in enumerate(players)
    ]


def _points(analysis: Mapping[str, Any], players: list[str], steps: int) -> list[list[Any]]:
    """The graph's points: [step, every player's chance to win]."""
    points = []
    for point in analysis.get("win_probability") or []:
        step = min(steps, max(0, int(point["event"]) + 1))
        points.append([step, [round(float(point["p"].get(p, 0.0)), 4) for p in players]])
    return points


def _decision(d: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """One decision as the viewer shows it."""
    best = float(d["options"][0]["win"]) if d.get("options") else 0.0
    return {
        "player": names.get(d.get("player"), d.get("player")),
        "die": d.get("die"),
        "played": d.get("played"),
        "best": d.get("best"),
        "loss_mw": round(float(d.get("loss_mw") or 0.0), 1),
        "mark": d.get("mark") if d.get("mark") in MARKS else None,
        "interval_mw": _interval(d.get("interval_mw")),
        # per option: the move, the mover's chance to win, milli-wins lost against the best
        "options": [
            [o["move"], round(float(o["win"]), 4), round(1000 * (best - float(o["win"])), 1)]
            for o in d.get("options") or []
        ],
    }


def _interval(interval: object) -> list[int] | None:
    """The 90 % interval of a loss (stored analyses before issue #37's have none)."""
    if isinstance(interval, list) and len(interval) == 2:
        return [round(float(x)) for x in interval]
    return None


def _marked(decisions: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The marked moves in the order played (the page's list of mistakes)."""
    return [
        {
            "step": int(step),
            **{k: d[k] for k in ("player", "die", "played", "best", "loss_mw")},
            "mark": d["mark"],
        }
        for step, d in sorted(decisions.items(), key=lambda item: int(item[0]))
        if d["mark"]
    ]


def _marks(marks: Mapping[str, Any]) -> dict[str, Any]:
    """How the marks were set (thresholds, margins, the errors of a loss)."""
    return {
        "thresholds_mw": dict(marks.get("thresholds_mw") or {}),
        "margin_mw": marks.get("margin_mw"),
        "loss_sd_mw": marks.get("loss_sd_mw"),
        # the error of a loss of a mark's size (older analyses: one error for every loss)
        "loss_sd_large_mw": marks.get("loss_sd_large_mw") or marks.get("loss_sd_mw"),
        "large_loss_mw": marks.get("large_loss_mw") or 30,
        "margin_endgame_mw": marks.get("margin_endgame_mw"),
        "loss_sd_endgame_mw": marks.get("loss_sd_endgame_mw"),
        # the largest marks played out to the end (0: none, or an analysis from before)
        "check_rollouts": int(marks.get("check_rollouts") or 0),
        "checks_per_game": int(marks.get("checks_per_game") or 0),
    }


def player_summary(analysis: Mapping[str, Any], player: str | None) -> dict[str, Any] | None:
    """One log player's summary (decisions, average loss, marks, luck) or None."""
    if player is None:
        return None
    summary = (analysis.get("summary") or {}).get(player)
    return dict(summary) if isinstance(summary, Mapping) else None
