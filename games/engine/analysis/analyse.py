"""``analyse(log)``: the whole analysis of one game as a JSON-ready dict
(``maedn-analysis/5``, docs/analysis.md "Output").

The decisions with their options (each option's equity from the evaluator with one ply of
search), the win-probability graph after every event, and a per-player summary: the loss
per decision in milli-wins, the marks, the error-rate band, and the luck split with the
luck-adjusted result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..evaluator import endgame
from ..game import Game
from ..moves import IllegalMove
from ..variants import VARIANTS, Variant
from .checks import MARK_CHECKS_PER_GAME, check_decisions, check_seed
from .counting import OPTION_SD_ENDGAME_MW, OPTION_SD_MW, counted_losses_mw
from .decisions import (
    FAMILY_CONFIDENCE,
    INTERVAL_CONFIDENCE,
    LARGE_LOSS_MW,
    LOSS_SD_ENDGAME_MW,
    LOSS_SD_LARGE_MW,
    LOSS_SD_MW,
    THRESHOLDS_MW,
    Decision,
    Walk,
    clear_margin,
    loss_interval_mw,
    mark_for,
    walk,
)
from .equity import MAX_PLIES, Equity, Evaluator, default_evaluator, model_name
from .luck import capture_stats, decompose, luck_summary

ANALYSIS_FORMAT = "maedn-analysis/5"

BANDS: tuple[tuple[str, float], ...] = (
    ("excellent", 0.05),
    ("strong", 0.13),
    ("solid", 1.2),
    ("uneven", 5.0),
    ("weak", float("inf")),
)
"""Levels of a player's game by its **chances lost per decision** (the counted loss,
``summary.loss_mw`` / ``decisions``, milli-wins; upper bounds), since
``maedn-analysis/5``. Calibrated on mixed league games of a random, a heuristic, a strong
and a second heuristic player (``bench/loss_rules.py --levels``; docs/analysis.md,
"Levels"): the edges that put the most pairs of players of different kinds in one game in
order on the 150 development games, rounded, then checked on 850 held-out games (91.5 % of
pairs in order there). On those: ``excellent`` holds 79 % of the strong player's games,
``solid`` 58 % of the heuristic player's, ``weak`` 56 % of the random mover's and
``uneven`` 39 %."""

MIN_DECISIONS_FOR_BAND = 10
"""Fewer decisions than this in a game: no band (one error decides the rate)."""


def log_variant(log: object) -> Variant | None:
    """The platform variant a log's ``meta.variant`` names (a live room's "Quick" or
    "First capture"), or None: the game is then judged by that variant's end."""
    try:
        data = log if isinstance(log, dict) else json.loads(log)  # type: ignore[arg-type]
        key = (data.get("meta") or {}).get("variant")
        return VARIANTS.get(key) if isinstance(key, str) else None
    except (ValueError, TypeError, AttributeError, RecursionError):
        # not readable here (nested too deeply: issue 32): walk() reports what is wrong
        return None


def band_for(lost_per_decision: float | None, decisions: int) -> str | None:
    """The level of a player's game from its chances lost per decision (mw; ``BANDS``),
    ``None`` with too few decisions."""
    if lost_per_decision is None or decisions < MIN_DECISIONS_FOR_BAND:
        return None
    for name, upper in BANDS:
        if lost_per_decision <= upper:
            return name
    return BANDS[-1][0]


def analyse(
    log: object,
    *,
    evaluator: Evaluator | None = None,
    plies: int = 1,
    progress: Callable[[int, int], None] | None = None,
    max_events: int | None = None,
    max_cpu_seconds: float | None = None,
    mark_checks: int = 0,
) -> dict[str, Any]:
    """Analyse a game log (dict, JSON text or bytes — what ``validate`` takes).

    ``evaluator``: the model (``win_chances(game)``); default the shipped one for the
    log's rules (``games.engine.evaluator.evaluator_for``). ``plies``: 1 (the platform's:
    an option's equity is the expectation over the next roll of the next roller's best
    reply), 0 (the evaluator's value of the state after the move) or 2 (one ply deeper,
    ~12 times the cost). Deterministic: the same log and
    model always give the same analysis (``seconds`` aside). ``progress(done, total)`` is
    called now and then (events done of all). ``max_events`` and ``max_cpu_seconds``
    bound the work (``None``: no bound): a longer log, or a walk past that much CPU time,
    raises :class:`AnalysisTooLong` (the platform's limits: ``ANALYSIS_MAX_EVENTS`` and
    ``ANALYSIS_MAX_CPU_SECONDS``). Raises :class:`~games.engine.InvalidLog` for an
    invalid log and ``ValueError`` for bad arguments. ``mark_checks``: the paired rollouts
    each of the game's largest marks is played out with (:mod:`.checks`); the platform and
    the command line pass ``MARK_CHECK_ROLLOUTS`` (1,500); 0, the default, leaves the
    evaluator's marks as they are (the model's own verdicts, a few milliseconds cheaper
    than a mark's seconds of rollouts).
    """
    if type(plies) is not int or not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies must be a whole number from 0 to {MAX_PLIES}, not {plies!r}")
    with endgame.private_store():  # what a lookup gives depends on what was solved before
        result = _analyse(log, evaluator, plies, progress, max_events, max_cpu_seconds)
        w, variant, used, t0 = result
        return _result(w, variant, plies, used, t0, _play_out(log, w, variant, mark_checks))


PlayOut = Callable[[list[Decision]], dict[int, Any]]


def _play_out(log: object, w: Walk, variant: Variant | None, rollouts: int) -> PlayOut | None:
    """How the game's marked moves are played out (:mod:`.checks`, seeded by the game's
    dice): marked decisions → event → check. None in a variant's game or with ``rollouts``
    0: the evaluator's marks stand."""
    if variant is not None or rollouts <= 0:
        return None
    seed = check_seed([r.die for r in w.rolls])
    return lambda marked: check_decisions(log, marked, rollouts, seed)


def _analyse(log, evaluator, plies, progress, max_events, max_cpu_seconds):
    t0 = time.perf_counter()
    used: list[Evaluator] = []

    def equity_for(game: Game) -> Equity:
        model = evaluator if evaluator is not None else default_evaluator(game)
        used.append(model)
        return Equity(model, game, plies)

    variant = log_variant(log)
    bounds = {"max_events": max_events, "max_cpu_seconds": max_cpu_seconds}
    try:
        w = walk(log, equity_for, variant, progress, **bounds)
    except IllegalMove:  # the log goes on past the variant's end: not that variant's game
        variant = None
        w = walk(log, equity_for, None, progress, **bounds)
    return w, variant, used, t0


def _result(
    w: Walk,
    variant: Variant | None,
    plies: int,
    used: list[Evaluator],
    t0: float,
    play_out: PlayOut | None = None,
) -> dict[str, Any]:
    """The analysis of a walk (the ``maedn-analysis/5`` dict)."""
    players = w.players
    names = w.game0.names
    setup = w.game0.setup
    margin, margin_endgame = mark_margins(len(w.decisions))

    counted = counted_by_decision(w.decisions, players)
    decisions = [
        _decision_entry(d, names[d.seat], players, margin_endgame if d.endgame else margin, c)
        for d, c in zip(w.decisions, counted, strict=True)
    ]
    checks: dict[int, Any] = {}
    if play_out is not None:  # the game's largest marks (by the evaluator) played out
        by_event = {d.event: d for d in w.decisions}
        marked = sorted((e for e in decisions if e["mark"]), key=lambda e: (-e["loss"], e["event"]))
        checks = play_out([by_event[e["event"]] for e in marked[:MARK_CHECKS_PER_GAME]])
    for e in decisions:  # a mark played out stands on its rollouts (.checks)
        check = checks.get(e["event"])
        if check is not None:
            e["check"] = check.entry(e["loss_mw"])
            e["loss_mw"], e["interval_mw"] = e["check"]["loss_mw"], e["check"]["interval_mw"]
            e["mark"] = check.mark
    graph: list[dict[str, Any]] = [{"event": -1, "p": _shares(players, w.start)}]
    graph += [{"event": r.event, "p": _shares(players, r.played)} for r in w.rolls]

    luck = luck_summary(
        players,
        decompose(players, w.start, w.rolls),
        capture_stats(w.game0, w.offers, players),
    )
    summary = {
        p: _player_summary(
            [e for e in decisions if e["player"] == p],
            sum(c for d, c in zip(w.decisions, counted, strict=True) if d.player == p),
            luck[p],
        )
        for p in players
    }
    return {
        "format": ANALYSIS_FORMAT,
        "model": model_name(used[0]) if used else None,
        "plies": plies,
        "players": list(players),
        "colours": {names[s]: setup.player_of(s) for s in setup.in_play},
        "complete": w.final.over,
        "variant": variant.key if variant else None,  # the platform variant judged by
        "start": {"p": _shares(players, w.start)},
        "marks": {
            "thresholds_mw": dict(THRESHOLDS_MW),
            "loss_sd_mw": LOSS_SD_MW,
            "loss_sd_large_mw": LOSS_SD_LARGE_MW,
            "large_loss_mw": LARGE_LOSS_MW,
            "loss_sd_endgame_mw": LOSS_SD_ENDGAME_MW,
            "interval_confidence": INTERVAL_CONFIDENCE,
            "count_option_sd_mw": OPTION_SD_MW,
            "count_option_sd_endgame_mw": OPTION_SD_ENDGAME_MW,
            "family_confidence": FAMILY_CONFIDENCE,
            "margin_mw": round(margin, 1),
            "margin_endgame_mw": round(margin_endgame, 1),
            "check_rollouts": max([c.rollouts for c in (checks or {}).values()], default=0),
            "checks_per_game": MARK_CHECKS_PER_GAME,
        },
        "decisions": decisions,
        "win_probability": graph,
        "summary": summary,
        "seconds": round(time.perf_counter() - t0, 2),
    }


def counted_by_decision(decisions: Sequence[Decision], players: Sequence[str]) -> list[float]:
    """Every decision's loss as it counts (mw, :func:`.counting.counted_losses_mw` over each
    player's decisions of the game), in the decisions' order."""
    out = [0.0] * len(decisions)
    for me, player in enumerate(players):
        mine = [i for i, d in enumerate(decisions) if d.player == player]
        values = [
            ([1000 * v[me] for v in decisions[i].values], decisions[i].played, decisions[i].endgame)
            for i in mine
        ]
        for i, c in zip(mine, counted_losses_mw(values), strict=True):
            out[i] = c
    return out


def _player_summary(mine: list[dict[str, Any]], counted: float, luck: Any) -> dict[str, Any]:
    """One player's summary from its decision entries, its counted loss (mw) and its luck."""
    raw = sum(e["loss"] for e in mine)
    rate = 1000 * raw / len(mine) if mine else None
    return {
        "decisions": len(mine),
        # the chances lost that count: each loss's expected true part (counting.py)
        "loss_mw": round(counted, 1),
        "raw_loss_mw": round(1000 * raw, 1),
        "error_rate": None if rate is None else round(rate, 1),
        "average_loss": round(raw / len(mine), 4) if mine else 0.0,
        # the level: by the chances lost per decision (since /5; before, the error rate)
        "band": band_for(counted / len(mine) if mine else None, len(mine)),
        "inaccuracies": sum(e["mark"] == "inaccuracy" for e in mine),
        "mistakes": sum(e["mark"] == "mistake" for e in mine),
        "blunders": sum(e["mark"] == "blunder" for e in mine),
        "luck": luck,
    }


def mark_margins(decisions: int) -> tuple[float, float]:
    """The margins (milli-wins) a loss must clear above a mark's threshold in a game of
    ``decisions`` decisions: in an ordinary position and in a race endgame. Every mark is
    a loss of ``LARGE_LOSS_MW`` or more, so the margin allows for the error of a loss of
    that size (``LOSS_SD_LARGE_MW``)."""
    return clear_margin(decisions, LOSS_SD_LARGE_MW), clear_margin(decisions, LOSS_SD_ENDGAME_MW)


def decision_mark(loss_mw: float, endgame: bool, margins: tuple[float, float]) -> str | None:
    """The mark of a decision's loss with the game's :func:`mark_margins`."""
    return mark_for(loss_mw, margins[1] if endgame else margins[0])


def _shares(players: Sequence[str], v: Sequence[float]) -> dict[str, float]:
    return {p: round(v[i], 4) for i, p in enumerate(players)}


def _decision_entry(
    d: Decision, colour: str, players: Sequence[str], margin: float, counted: float
) -> dict[str, Any]:
    """The JSON entry of one decision: options best first."""
    me = players.index(d.player)
    order = sorted(range(len(d.values)), key=lambda i: (-d.values[i][me], i != d.played, i))
    order.remove(d.best)  # the best first even on a tie broken by the move played
    order.insert(0, d.best)
    loss = d.loss(me)
    loss_mw = 1000 * loss
    low, high = loss_interval_mw(loss_mw, d.endgame)
    return {
        "event": d.event,
        "colour": colour,
        "player": d.player,
        "die": d.die,
        "played": d.names[d.played],
        "best": d.names[d.best],
        "options": [
            {
                "move": d.names[i],
                "win": round(d.values[i][me], 4),
                "p": _shares(players, d.values[i]),
            }
            for i in order
        ],
        "loss": loss,
        "loss_mw": round(loss_mw, 1),
        # where the true loss lies with INTERVAL_CONFIDENCE (the model's measured error)
        "interval_mw": [round(low, 1), round(high, 1)],
        "endgame": d.endgame,
        "phase": d.phase,
        # the loss's expected true part given the model's error and the player's choices:
        # what the chances lost add up
        "counted_mw": round(counted, 1),
        "mark": mark_for(loss_mw, margin),
    }
