"""Walking a log: every roll's equities, the decisions' options, best and played move,
loss and mark.

Every event is a *roll point*: the colour on turn rolls ``d`` and moves (or cannot). From
the :class:`~.equity.Equity` of the states involved the walk records, per roll,

* ``before`` — the equity of the position before the roll (the previous roll's
  ``played``; the start position's for the first roll),
* ``best`` — the equity after the roll with the best move for the roller's player
  (with one legal move or none: the only result),
* ``played`` — the equity after the move actually played.

A *decision* is a roll with more than one legal move. Its options are the states after
each legal move (the logged huff for the move played; the best huff for the others), the
best is the option with the highest equity for the mover's player (ties: the move
played, then the engine's move order), and the **loss** is ``best − played`` for that
player: never negative, 0 when the best move was played.

**Marks** (see :func:`mark_for`): a move is marked only when its loss is clear — larger
than the band's threshold by a margin that allows for the evaluator's error and for the
number of decisions in the game (Bonferroni: at most a 5 % chance that any move of a game
is marked by evaluator error alone, if that error were normal with the measured spread of
a loss of a mark's size, ``LOSS_SD_LARGE_MW``, or ``LOSS_SD_ENDGAME_MW`` in a race endgame).
Every loss also has its 90 % interval (:func:`loss_interval_mw`) from the error of a loss
of its size and kind (:func:`loss_sd_mw`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist

from ..board import PAWNS_PER_COLOUR
from ..game import Game
from ..moves import IllegalMove
from ..validate import replay_log
from ..variants import Variant
from .equity import Equity, Vector, expect_best
from .luck import capture_offers

THRESHOLDS_MW = {"inaccuracy": 30, "mistake": 60, "blunder": 120}
"""Loss in milli-wins (thousandths of a game) from which a move falls into a band, once
the loss is clear (:func:`mark_for`)."""

LOSS_SD_MW = 12.0
"""The spread (standard deviation, milli-wins) of the evaluator's error on a decision's
loss below ``LARGE_LOSS_MW`` in an ordinary position. ``bench/analysis.py --calibration``
compares the analysis' loss (the move played against its best) with paired rollouts to the
end under the heuristic policy, the rollouts' own noise allowed for: session 10, 48
positions × 400 rollouts, 12.0 mw; session 11, 32 ordinary decisions of heuristic league
games × 1,000 rollouts, 11.5 mw, and the 90 % interval ``± 1.645 · 12`` covers 28 of the 32
(docs/analysis.md, "Calibration: the intervals"). Before issue #37: 8, a guess."""

LOSS_SD_ENDGAME_MW = 25.0
"""The same in a race endgame (:func:`is_endgame`): against exact values (expectimax) in
small endgames ``bench/analysis.py --exact 16`` measures a spread of 20.6 mw with
evaluator generation 1b (67 mw with generation 1) — the model is least sure there, so
marks need clearer losses."""

LOSS_SD_LARGE_MW = 25.0
"""The same for a loss of ``LARGE_LOSS_MW`` or more outside a race endgame — every mark is
one, so the marks' margin allows for this error. Measured on 44 marked moves of mixed
league games against 1,500 paired heuristic rollouts each (session 11, ``bench/analysis.py
--calibration``): their spread leaves 31 mw for the model after the rollouts' noise (a
few losses off by 70–80 mw weigh in), and the 90 % interval ``± 1.645 · 25``
covers 39 of the 44 (89 %; with 12 mw it covered 30); docs/analysis.md, "Calibration: the
intervals".
Session 10 used 12 mw for every loss: two of its marks were moves the heuristic rollouts
could not tell from the best."""

LARGE_LOSS_MW = 30.0
"""From this loss on (the smallest mark's threshold) the error is ``LOSS_SD_LARGE_MW``."""

INTERVAL_CONFIDENCE = 0.90
"""The confidence of the interval every decision gives for its loss (``interval_mw``)."""

COUNT_OVER_SD = 2.0
"""A loss *counts* in a player's total of chances lost only when it exceeds this many times
the measured error of its kind of position, and then in full (:func:`counted_loss_mw`):
adding up every loss charged a heuristic player +5.4 points a game more than the strong
player, where real games show +0.9 ± 1.1 (issue #37; ``bench/analysis.py
--calibration``, docs/analysis.md "Calibration")."""


def loss_sd_mw(endgame: bool, loss_mw: float = 0.0) -> float:
    """The measured error (milli-wins, one standard deviation) of a loss of that size in a
    position of that kind: ``LOSS_SD_ENDGAME_MW`` in a race endgame, else
    ``LOSS_SD_LARGE_MW`` from ``LARGE_LOSS_MW`` on and ``LOSS_SD_MW`` below."""
    if endgame:
        return LOSS_SD_ENDGAME_MW
    return LOSS_SD_LARGE_MW if loss_mw >= LARGE_LOSS_MW else LOSS_SD_MW


def loss_interval_mw(
    loss_mw: float, endgame: bool, confidence: float = INTERVAL_CONFIDENCE
) -> tuple[float, float]:
    """The interval (milli-wins) that holds the true loss of the move played against the
    analysis' best with probability ``confidence``, if the model's error is normal with
    the measured spread (:func:`loss_sd_mw`): ``loss ± z · sd``. Its lower end may be
    negative: then the move played may have been as good or better. Its coverage is
    measured on reference positions by ``bench/analysis.py --calibration``."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    half = z * loss_sd_mw(endgame, loss_mw)
    return (loss_mw - half, loss_mw + half)


COUNT_SD_MW = 12.0
"""The error the counting rule was calibrated with (session 10: totals of 100 mixed games
against paired win-rate differences, docs/analysis.md "Calibration"): a loss counts beyond
``COUNT_OVER_SD`` × 12 = 24 mw. Kept apart from ``LOSS_SD_MW`` (the intervals' error,
measured again since), so a better-measured interval does not silently move the totals
their own calibration fixed."""


def counted_loss_mw(loss_mw: float, endgame: bool) -> float:
    """A loss as session 10's rule counted it (``maedn-analysis/3``; since ``/4`` the
    analysis counts by :func:`.counting.counted_losses_mw`, this stays as the benchmarks'
    comparison): in full beyond ``COUNT_OVER_SD`` times ``COUNT_SD_MW`` (24 mw;
    ``LOSS_SD_ENDGAME_MW`` in a race endgame: 50 mw), else 0."""
    sd = LOSS_SD_ENDGAME_MW if endgame else COUNT_SD_MW
    return loss_mw if loss_mw > COUNT_OVER_SD * sd else 0.0


FAMILY_CONFIDENCE = 0.95
"""The chance that no move of a game is marked by the evaluator's error alone."""


class AnalysisTooLong(ValueError):
    """The log is longer than the analysis may take on: more events than ``max_events``
    (checked before any work), or the walk used more than ``max_cpu_seconds`` of CPU
    (checked after every event, so at most one event's work past the limit).
    ``kind`` is ``"events"`` or ``"time"``; ``events`` the log's events (``"events"``)
    or those done (``"time"``); ``limit`` the limit crossed."""

    def __init__(self, kind: str, events: int, limit: float):
        self.kind, self.events, self.limit = kind, events, limit
        if kind == "events":
            msg = f"the log has {events} events; the analysis takes at most {limit:g}"
        else:
            msg = f"stopped after {events} events at the limit of {limit:g} CPU seconds"
        super().__init__(msg)


def is_endgame(game: Game) -> bool:
    """A race endgame: every colour in play has left its yard and has at most two pawns
    on the track (the rest home) — where the evaluator's error was measured largest."""
    for s in game.setup.in_play:
        if game.finished[s]:
            continue
        if game.yard[s] or PAWNS_PER_COLOUR - game.home[s] > 2:
            return False
    return True


def phase(game: Game, seat: int) -> str:
    """The kind of position a decision is made in, for the measured error of its loss:
    ``"race"`` (:func:`is_endgame`), ``"opening"`` (the mover still has three or four
    pawns in its yard), else ``"middle"``."""
    if is_endgame(game):
        return "race"
    return "opening" if game.yard[seat] >= PAWNS_PER_COLOUR - 1 else "middle"


def clear_margin(decisions: int, sd: float = LOSS_SD_MW) -> float:
    """The margin (milli-wins) a loss must clear above a band's threshold in a game with
    ``decisions`` decisions: ``z · sd`` with ``z`` the one-sided normal quantile of
    ``1 − 0.05 / decisions`` (Bonferroni over the game's decisions)."""
    n = max(1, decisions)
    z = NormalDist().inv_cdf(1.0 - (1.0 - FAMILY_CONFIDENCE) / n)
    return z * sd


def mark_for(loss_mw: float, margin_mw: float) -> str | None:
    """The mark of a loss: the largest band whose threshold the loss exceeds by at least
    ``margin_mw``; ``None`` when it clears none."""
    mark = None
    for name, limit in THRESHOLDS_MW.items():  # ascending
        if loss_mw - margin_mw >= limit:
            mark = name
    return mark


@dataclass
class Roll:
    """One event of the log with its equities (see the module)."""

    event: int
    seat: int
    player: str
    die: int
    before: Vector
    best: Vector
    played: Vector
    decision: Decision | None = None
    expected: Vector | None = None
    """the expected equity over the six rolls, each met with its best move valued as the
    options are (one ply deeper than ``before``)"""


@dataclass
class Decision:
    """A roll with more than one legal move."""

    event: int
    seat: int
    player: str
    die: int
    names: list[str]
    """``str(Move)`` of each option, in the engine's move order"""
    values: list[Vector]
    """each option's equity"""
    played: int
    best: int
    endgame: bool = False
    """a race endgame (:func:`is_endgame`) before the roll"""
    phase: str = "middle"
    """:func:`phase` before the roll"""

    def loss(self, me: int) -> float:
        return max(0.0, self.values[self.best][me] - self.values[self.played][me])


@dataclass
class Walk:
    """What the walk over a log found: the setup, every roll and the final state."""

    game0: Game
    players: list[str]
    start: Vector
    rolls: list[Roll]
    offers: list[tuple[int, int, object, tuple[bool, ...]]]
    """per event: (seat, die, move played or None, :func:`.luck.capture_offers`)"""
    final: Game
    decisions: list[Decision] = field(default_factory=list)


def walk(
    log: object,
    equity_for: Callable[[Game], Equity],
    variant: Variant | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    max_events: int | None = None,
    max_cpu_seconds: float | None = None,
    lookahead: bool = True,
) -> Walk:
    """Read and check the log and value every roll (``equity_for(game0)`` gives the
    :class:`Equity` to use). With a platform ``variant`` (a live room's "Quick" or "First
    capture") every state ends by the variant's condition, as the game did.

    ``max_events`` / ``max_cpu_seconds`` bound the work (:class:`AnalysisTooLong`): the
    event count is checked before anything is valued, the process's CPU time after every
    event — a cheap check that never changes what a finished walk returns.

    ``lookahead=False`` leaves out every roll's ``expected`` (the luck split's expectation
    over the six rolls, five sixths of the cost): the decisions are the same, the luck
    split cannot be made (the benchmarks' and tests' quick way to a game's decisions).

    Raises :class:`~games.engine.InvalidLog` for a malformed or illegal log,
    :class:`~games.engine.IllegalMove` when the log goes on past the variant's end and
    :class:`AnalysisTooLong` past a bound.
    """
    _check_length(log, max_events)
    deadline = None if max_cpu_seconds is None else time.process_time() + max_cpu_seconds
    setup, game, steps = replay_log(log)
    game.platform_variant = variant
    game0 = game.copy()
    eq = equity_for(game0)
    total = _event_count(log) if progress is not None else 0
    start = eq.value(game)
    before = start
    rolls: list[Roll] = []
    offers: list[tuple[int, int, object, tuple[bool, ...]]] = []
    decisions: list[Decision] = []
    for step in steps:  # the replay checks each event before it is yielded
        if game.over:  # only with a variant: the spec's replay goes on, the variant ended
            raise IllegalMove(
                f"the log goes on after the {variant.key if variant else ''} game ended"
            )
        c = game.turn_seat
        me = eq.player_index[c]
        die = step.event["die"]
        legal = game.legal(c, die)
        choices, endgame, kind = _choices(eq, game, c, die, legal)
        offer = capture_offers(game, c)
        expected = _expected(eq, game, me) if lookahead else None
        pushed = game.push_event(step.event)
        move = None if pushed is None else pushed[0]
        offers.append((c, die, move, offer))
        played = eq.value(game)
        decision = None
        best_v = played
        if choices:
            values = [eq.value(after) for _, _, after in choices]
            decision = _decision(
                game0, step.index, c, die, legal, move, values, played, me, endgame, kind
            )
            decisions.append(decision)
            best_v = values[decision.best]
        rolls.append(
            Roll(step.index, c, setup.player_of(c), die, before, best_v, played, decision, expected)
        )
        before = played
        if deadline is not None and time.process_time() > deadline:
            raise AnalysisTooLong("time", step.index + 1, max_cpu_seconds or 0.0)
        if progress is not None and (step.index % 25 == 0):
            progress(step.index + 1, total)
    if progress is not None:
        progress(total, total)
    return Walk(game0, eq.players, start, rolls, offers, game, decisions)


def _check_length(log: object, max_events: int | None) -> None:
    if max_events is not None:
        count = _event_count(log)
        if count > max_events:
            raise AnalysisTooLong("events", count, max_events)


def _choices(eq: Equity, game: Game, c: int, die: int, legal: list) -> tuple[list, bool, str]:
    """The options of seat ``c`` rolling ``die`` (none without a choice: one legal move or
    none), whether that is a race endgame and the game's phase for it."""
    if len(legal) <= 1:
        return [], False, "middle"
    choices = eq.options(game, die)
    if not choices:
        return choices, False, "middle"
    return choices, is_endgame(game), phase(game, c)


def _decision(
    game0: Game,
    event: int,
    c: int,
    die: int,
    legal: list,
    move: object,
    values: list[Vector],
    played: Vector,
    me: int,
    endgame: bool,
    phase: str,
) -> Decision:
    """The decision of seat ``c`` (player index ``me``) rolling ``die`` at ``event``: the
    ``legal`` moves valued (``values``, in place: the move as played gets ``played``, the
    value with the logged huff), the one played and the best (ties: the played one, then
    the first); ``endgame`` and ``phase`` describe the position before the roll."""
    k = legal.index(move)
    values[k] = played
    best = max(range(len(values)), key=lambda i: (values[i][me], i == k, -i))
    return Decision(
        event=event,
        seat=c,
        player=game0.setup.player_of(c),
        die=die,
        names=[str(game0.move_object(m, c)) for m in legal],
        values=values,
        played=k,
        best=best,
        endgame=endgame,
        phase=phase,
    )


def _expected(eq: Equity, game: Game, me: int) -> Vector:
    """The expected equity over the six rolls of the colour on turn, each met with the
    move best for its player, the states after it valued as the options are."""
    per_die = [eq.options(game, die) for die in range(1, 7)]
    values = iter(eq.values([after for opts in per_die for *_, after in opts]))
    return expect_best(values, [len(opts) for opts in per_die], me, len(eq.players))


def _event_count(log: object) -> int:

    try:
        data = log if isinstance(log, dict) else json.loads(log)  # type: ignore[arg-type]
        return len(data.get("events") or [])
    except (ValueError, TypeError, AttributeError):
        return 0
