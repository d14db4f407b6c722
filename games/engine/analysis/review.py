"""A review of one analysed game in plain facts (issue #37): what decided the game, and at
most three key moments, each with *why* the better move was better — facts read from the
positions (a capture missed, a pawn left within reach, the start field blocked, a pawn
brought home), not from the evaluator's numbers alone. Language-neutral: codes and
values; the pages turn them into sentences (English and German).

    review(log, analysis) -> {"verdict": {...}, "moments": [...]}

``analysis`` is the ``maedn-analysis/5`` dict of the same log (:func:`.analyse.analyse`);
the log is replayed once (milliseconds), so stored analyses get a review without being
computed again. Deterministic, like the analysis.

**What decided the game** (``verdict``), for the winner ``W`` (a finished game only): the
dice's part is ``W``'s luck (the sum over every roll of how much it moved ``W``'s chance,
``summary[W].luck.luck``); the decisions' part is what the *marked* moves did to ``W``'s
chance — the other players' marked moves as they raised it, minus ``W``'s own marked
losses. Only marked moves count, because smaller losses are within the model's measured
error (docs/analysis.md, "How sure"). The larger part decided; ``sure`` is ``"clearly"``
when it is at least twice the other, else ``"mostly"``.

**Key moments** (``moments``): the marked moves with the largest losses, at most three, in
the order of the game. When the dice decided and fewer than three moves are marked, the
roll that moved ``W``'s chance most is added (``kind: "roll"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from ..board import YARD
from ..game import Game
from ..validate import replay_log

MAX_MOMENTS = 3
REACH = 6
"""A pawn is *within reach* of an enemy pawn 1–6 fields behind it on the track (one roll)."""


def review(log: object, analysis: Mapping[str, Any]) -> dict[str, Any]:
    """The review of ``log`` from its ``analysis`` (see the module)."""
    decisions = {int(d["event"]): d for d in analysis.get("decisions") or []}
    marked = [d for d in decisions.values() if d.get("mark")]
    chosen = sorted(marked, key=lambda d: (-float(d["loss"]), int(d["event"])))[:MAX_MOMENTS]
    verdict = _verdict(analysis, marked)
    roll_event = _added_roll(analysis, verdict, len(chosen))
    wanted = {int(d["event"]) for d in chosen} | ({roll_event} if roll_event is not None else set())
    moments = _moments(log, analysis, decisions, wanted, roll_event) if wanted else {}
    return {"verdict": verdict, "moments": [moments[e] for e in sorted(moments)]}


def _moments(
    log: object,
    analysis: Mapping[str, Any],
    decisions: Mapping[int, Mapping[str, Any]],
    wanted: set[int],
    roll_event: int | None,
) -> dict[int, dict[str, Any]]:
    """Event → the key moment there, for the ``wanted`` events (the log replayed to the last)."""
    moments: dict[int, dict[str, Any]] = {}
    last = max(wanted)
    _setup, game, steps = replay_log(log)
    for step in steps:
        i = step.index
        if i > last:
            break
        if i not in wanted:
            game.push_event(step.event)
            continue
        before = game.copy()
        c = game.turn_seat
        pushed = game.push_event(step.event)
        if i in decisions and i != roll_event:
            moments[i] = _decision_moment(before, c, decisions[i], pushed)
        else:
            moments[i] = _roll_moment(before, game, c, step.event, analysis, i)
    return moments


# --- what decided the game ---------------------------------------------------------------


def _verdict(analysis: Mapping[str, Any], marked: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    summary = analysis.get("summary") or {}
    winner = _winner(summary)
    if not analysis.get("complete") or winner is None:
        return {"kind": "unfinished"}
    luck = float(summary[winner]["luck"].get("luck", 0.0))
    choices = 0.0
    for d in marked:  # others' marked moves raise the winner's chance, its own lower it
        choices += _p(d, d["played"], winner) - _p(d, d["best"], winner)
    dice, decided = max(luck, 0.0), max(choices, 0.0)
    kind = "dice" if dice >= decided else "decisions"
    big, small = (dice, decided) if kind == "dice" else (decided, dice)
    return {
        "kind": kind,
        "player": winner,
        "dice_points": round(100 * luck),
        "decision_points": round(100 * choices),
        "marked": len(marked),
        "sure": "clearly" if big >= 2 * small else "mostly",
    }


def _winner(summary: Mapping[str, Any]) -> str | None:
    """The player whose chance ended at 1 (``None`` before the game is won)."""
    return next(
        (p for p, s in summary.items() if float((s.get("luck") or {}).get("end", 0)) == 1.0),
        None,
    )


def _added_roll(analysis: Mapping[str, Any], verdict: Mapping[str, Any], chosen: int) -> int | None:
    """The decisive roll's event, a key moment when the dice decided and fewer than
    ``MAX_MOMENTS`` moves are marked; else None."""
    if verdict.get("kind") == "dice" and chosen < MAX_MOMENTS:
        return _decisive_roll(analysis, verdict["player"])
    return None


def _p(decision: Mapping[str, Any], move: str, player: str) -> float:
    for o in decision.get("options") or []:
        if o["move"] == move:
            return float(o["p"].get(player, 0.0))
    return 0.0


def _decisive_roll(analysis: Mapping[str, Any], winner: str) -> int | None:
    """The event whose roll moved the winner's chance most (the graph's largest step)."""
    graph = analysis.get("win_probability") or []
    best, at = 0.0, None
    for prev, point in pairwise(graph):
        change = abs(float(point["p"].get(winner, 0)) - float(prev["p"].get(winner, 0)))
        if change > best:
            best, at = change, int(point["event"])
    return at


# --- why: facts of the position ----------------------------------------------------------


def _decision_moment(
    game: Game, c: int, d: Mapping[str, Any], pushed: tuple | None
) -> dict[str, Any]:
    legal = game.legal(c, int(d["die"]))
    by_name = {str(game.move_object(m, c)): m for m in legal}
    played, best = by_name.get(d["played"]), by_name.get(d["best"])
    if pushed is not None:
        played = pushed[0]
    reasons = _reasons(game, c, played, best) if played and best else []
    return {
        "kind": "decision",
        "event": int(d["event"]),
        "step": int(d["event"]) + 1,
        "colour": d["colour"],
        "player": d["player"],
        "die": d["die"],
        "played": d["played"],
        "best": d["best"],
        "mark": d.get("mark"),
        "chance_played": round(100 * _p(d, d["played"], d["player"])),
        "chance_best": round(100 * _p(d, d["best"], d["player"])),
        # a mark played out to the end (checks.py): how many more games in 100 the better won
        "played_out": _played_out(d),
        "reasons": reasons,
    }


def _played_out(d: Mapping[str, Any]) -> dict[str, int] | None:
    """A played-out mark's rollouts and its loss in games per hundred, else ``None``."""
    check = d.get("check")
    if not isinstance(check, Mapping):
        return None
    return {"times": int(check["rollouts"]), "per_hundred": round(float(check["loss_mw"]) / 10)}


def _roll_moment(
    before: Game, after: Game, c: int, event: Mapping[str, Any], analysis, i: int
) -> dict[str, Any]:
    graph = {int(p["event"]): p["p"] for p in analysis.get("win_probability") or []}
    colour = before.names[c]
    player = before.setup.player_of(c)
    facts: list[dict[str, Any]] = []
    for s in before.setup.in_play:
        if s != c and after.yard[s] > before.yard[s]:
            facts.append({"code": "captured", "victim": before.names[s]})
    if after.home[c] > before.home[c]:
        facts.append({"code": "home"})
    if before.yard[c] > after.yard[c]:
        facts.append({"code": "out"})
    was = graph.get(i - 1, {})
    now = graph.get(i, {})
    return {
        "kind": "roll",
        "event": i,
        "step": i + 1,
        "colour": colour,
        "player": player,
        "die": event.get("die"),
        "chance_before": round(100 * float(was.get(player, 0))),
        "chance_after": round(100 * float(now.get(player, 0))),
        "reasons": facts,
    }


def _reasons(game: Game, c: int, played, best) -> list[dict[str, Any]]:
    """Facts that tell the best move from the one played, most telling first."""
    mine = set(game.setup.players[game.setup.player_of(c)])
    after_p, after_b = _after(game, c, played), _after(game, c, best)
    facts = (
        _missed_capture(game, played, best, mine),
        _missed_home(game.T, played, best),
        _start_blocked(after_p, after_b, c, mine),
        {"code": "missed_out"} if best[1] == YARD and played[1] != YARD else None,
        _left_in_reach(after_p, after_b, mine),
    )
    out = [fact for fact in facts if fact is not None]
    if not out:  # a threat missed, or nothing on the board tells them apart: the race
        out.append(_missed_threat(after_p, after_b, mine) or {"code": "race"})
    return out[:2]


def _missed_capture(game: Game, played, best, mine: set[int]) -> dict[str, Any] | None:
    if best[3] >= 0 and best[3] not in mine and played[3] != best[3]:
        return {"code": "missed_capture", "victim": game.names[best[3]]}
    return None


def _missed_home(T: int, played, best) -> dict[str, Any] | None:
    """The best move brought a pawn into the house, the one played did not."""
    if best[1] < T <= best[2] and not played[1] < T <= played[2]:
        return {"code": "missed_home"}
    return None


def _start_blocked(after_p: Game, after_b: Game, c: int, mine: set[int]) -> dict | None:
    if _blocks_start(after_p, c, mine) and not _blocks_start(after_b, c, mine):
        return {"code": "start_blocked"}
    return None


def _left_in_reach(after_p: Game, after_b: Game, mine: set[int]) -> dict[str, Any] | None:
    """The move played left more of the player's pawns within an enemy's reach."""
    reach_p, reach_b = _within_reach(after_p, mine), _within_reach(after_b, mine)
    if len(reach_p) <= len(reach_b):
        return None
    extra = [r for r in reach_p if r not in reach_b] or reach_p
    return {"code": "left_in_reach", "enemy": extra[0][1], "fields": extra[0][2]}


def _missed_threat(after_p: Game, after_b: Game, mine: set[int]) -> dict[str, Any] | None:
    """The best move would have put more enemy pawns within the player's reach."""
    threats_p, threats_b = _threats(after_p, mine), _threats(after_b, mine)
    if len(threats_b) > len(threats_p):
        return {"code": "missed_threat", "victim": threats_b[0]}
    return None


def _after(game: Game, c: int, move) -> Game:
    g = game.copy()
    g.move_pawn(c, move)
    return g


def _blocks_start(game: Game, c: int, mine: set[int]) -> bool:
    """``c``'s own pawn stands on its start field while it has pawns in the yard."""
    return bool(game.yard[c]) and game.track[game.start[c]] in mine


def _within_reach(game: Game, mine: set[int]) -> list[tuple[int, str, int]]:
    """The player's track pawns an enemy pawn could hit with one roll:
    (absolute field, the enemy's colour, fields between them)."""
    T = game.T
    found = []
    for s in mine:
        for pos in game.pawns[s]:
            if pos == YARD or pos >= T:
                continue
            field = game.abs_of[s][pos]
            hit = _hitter(game, field, mine)
            if hit is not None:
                found.append((field, *hit))
    return sorted(found)


def _hitter(game: Game, field: int, mine: set[int]) -> tuple[str, int] | None:
    T = game.T
    for back in range(1, REACH + 1):
        f = (field - back) % T
        e = game.track[f]
        if e >= 0 and e not in mine and game.rel_of[e][f] + back < T:
            return game.names[e], back
    for e in game.setup.in_play:  # an enemy with yard pawns hits its start field with a 6
        if e not in mine and game.yard[e] and game.start[e] == field:
            return game.names[e], 0
    return None


def _threats(game: Game, mine: set[int]) -> list[str]:
    """Enemy colours with a track pawn 1–6 fields ahead of one of the player's pawns."""
    T = game.T
    out = []
    for s in mine:
        for pos in game.pawns[s]:
            if pos == YARD or pos >= T:
                continue
            field = game.abs_of[s][pos]
            for ahead in range(1, REACH + 1):
                if pos + ahead >= T:
                    break
                e = game.track[(field + ahead) % T]
                if e >= 0 and e not in mine:
                    out.append(game.names[e])
    return out
