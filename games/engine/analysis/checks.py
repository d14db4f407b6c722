"""Marks checked by play to the end (issue #37).

The evaluator's loss of a large mistake is off by about 25–31 mw (docs/analysis.md,
"Calibration"): enough to mark the right moves, not to say how much they cost. A mark is
what people read, and few moves are marked (about one game in twenty of mixed league
games has one), so every marked move is **played out**: the move played and the best
move each by ``MARK_CHECK_ROLLOUTS`` paired rollouts to the end (the same dice for both
moves, each rollout its own dice; every colour played by the heuristic policy,
:class:`~.policy.FastHeuristicPolicy`), and the mark then stands on what the rollouts say:

* the **loss shown** is the rollouts' (the mover's wins with the best move minus with the
  move played, per rollout), with its 95 % interval;
* the **mark** is the largest band whose threshold that loss clears by its own 95 %
  margin (``1.96 × se``): a mark the rollouts do not confirm is dropped, one they find
  larger or smaller moves band.

Deterministic: the dice of rollout ``k`` at event ``e`` come from ``(seed, e, k)``, the
seed from the game's own dice (:func:`check_seed`), so the same log always gives the same
checks — and dice independent of any benchmark's, which value the same moves again to
check the check. At most ``MARK_CHECKS_PER_GAME`` moves of a game are played out (its
largest losses); a further mark keeps the evaluator's verdict. A game of a platform variant
(a live room's "Quick" or "First capture") is not played out: the rollouts play a game to
its normal end.

The loss the evaluator gave stays in the analysis (``model_loss_mw``); the totals, error
rates and the luck split keep the evaluator's values, so their identities hold.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from ..validate import replay_log
from .decisions import Decision, mark_for
from .policy import FastHeuristicPolicy
from .rollout import estimate_options

MARK_CHECK_ROLLOUTS = 1500
"""Paired rollouts per checked move (its standard error: 13–17 mw on marked moves of
mixed league games, docs/analysis.md "Marks played out")."""

MARK_CHECKS_PER_GAME = 4
"""Marked moves of one game that are played out (the largest losses): 1,500 rollouts of
a mark cost 2–10 CPU-s; 4 was the most marks of one game in 1,000 mixed league games."""

CHECK_CONFIDENCE = 0.95
"""The confidence of a checked loss's interval and of the margin its mark must clear."""

_Z = NormalDist().inv_cdf(0.5 + CHECK_CONFIDENCE / 2)


@dataclass(frozen=True)
class MarkCheck:
    """A decision's best and played move played out: the mover's mean win difference
    (best − played) in milli-wins and its standard error."""

    rollouts: int
    loss_mw: float
    se_mw: float

    @property
    def interval_mw(self) -> tuple[float, float]:
        half = _Z * self.se_mw
        return self.loss_mw - half, self.loss_mw + half

    @property
    def mark(self) -> str | None:
        """The band the played-out loss clears by its 95 % margin (``None``: not a mark)."""
        return mark_for(self.loss_mw, _Z * self.se_mw)

    def entry(self, model_loss_mw: float) -> dict[str, float | int | list[float]]:
        low, high = self.interval_mw
        return {
            "rollouts": self.rollouts,
            "loss_mw": round(self.loss_mw, 1),
            "interval_mw": [round(low, 1), round(high, 1)],
            "confidence": CHECK_CONFIDENCE,
            "model_loss_mw": round(model_loss_mw, 1),
        }


def check_seed(dice: Sequence[int]) -> int:
    """The rollouts' seed of a game: from its own rolls (48 bits of their SHA-256)."""
    return int.from_bytes(hashlib.sha256(bytes(dice)).digest()[:6], "big")


def check_decisions(
    log: object, decisions: Sequence[Decision], rollouts: int, seed: int
) -> dict[int, MarkCheck]:
    """Each of ``decisions`` (of this log) played out: its event → :class:`MarkCheck`."""
    wanted = {d.event: d for d in decisions}
    if not wanted or rollouts < 2:
        return {}
    policy = FastHeuristicPolicy()
    out: dict[int, MarkCheck] = {}
    _setup, game, steps = replay_log(log)
    last = max(wanted)
    for step in steps:
        if step.index > last:
            break
        d = wanted.get(step.index)
        if d is not None:
            c = game.turn_seat
            legal = game.legal(c, d.die)
            after = []
            for option in (d.best, d.played):
                g = game.copy()
                g.push_raw(d.die, legal[option])
                after.append(g)
            best, played = (
                e.indicator(d.player)
                for e in estimate_options(after, rollouts, seed, d.event, policy)
            )
            diffs = [b - p for b, p in zip(best, played, strict=True)]
            mean = sum(diffs) / rollouts
            var = sum((x - mean) ** 2 for x in diffs) / (rollouts - 1)
            out[d.event] = MarkCheck(rollouts, 1000 * mean, 1000 * math.sqrt(var / rollouts))
        game.push_event(step.event)
    return out
