"""Equities from the learned evaluator: every player's chance of winning at a roll point.

The evaluator (``games.engine.evaluator``, contract: ``evaluator_for(rules)`` →
an object whose ``win_chances(game)`` gives, for a game at a roll point, one number per
colour in seat order — the chance that the player holding it wins, allied colours
sharing their player's chance; a finished game its exact outcome) is passed in as an
object, so tests give a stand-in and the analysis never builds a model itself.

:class:`Equity` turns it into per-player vectors (in ``setup.players`` order) and adds
one ply of search:

* ``plies=0``: the equity of a roll point is the evaluator's value ``V``.
* ``plies=1`` (the platform's setting): the equity of a roll point is the **expected
  equity over the six rolls** of the colour on turn, each roll met with the move that is
  best for its mover by ``V`` (a roll with no legal move passes; a roll with one is
  forced): ``E(s) = 1/6 · Σ_d max_m V(s after d, m)``.
* ``plies=2``: the same with ``E₁`` in place of ``V`` (the benchmark's reference for the
  evaluator's error, about twelve times the cost).

Both are deterministic functions of the position and the turn state: the same log
always gives the same analysis for a given model. Values are memoised by state
(:func:`state_key`), so a position reached twice is evaluated once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from ..game import Game
from ..moves import RawMove
from .rollout import state_key

MAX_PLIES = 2
"""Deeper search multiplies the cost by ~12 a ply (six rolls, ~2 moves each)."""

Vector = tuple[float, ...]
"""Every player's chance of winning, in ``setup.players`` order (sums to 1)."""


class Evaluator(Protocol):
    """What the analysis needs of a model (``games.engine.evaluator.Evaluator``)."""

    def win_chances(self, game: Game) -> Sequence[float]: ...


def default_evaluator(game: Game) -> Evaluator:
    """The shipped model for the game's field (its specialist where one ships, else the model
    of every field; cached per process by the evaluator module)."""
    from ..evaluator import evaluator_of  # noqa: PLC0415 (heavy: numpy and the network, loaded only when analysing)

    return evaluator_of(game)


def model_name(evaluator: object) -> str:
    """A short identification of the model, for the analysis' header."""
    for attr in ("name", "version", "model_id"):
        value = getattr(evaluator, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(evaluator).__name__


class Equity:
    """Per-player equities of roll points from ``evaluator``, with ``plies`` (0 or 1) of
    search, memoised by state.

    ``value(game)`` is the equity of a roll point; ``options(game, die)`` the states
    after each legal move of ``die`` (huff: the best for the mover by ``V``).
    """

    def __init__(self, evaluator: Evaluator, game: Game, plies: int = 1) -> None:
        if type(plies) is not int or not 0 <= plies <= MAX_PLIES:
            raise ValueError(f"plies must be a whole number from 0 to {MAX_PLIES}, not {plies!r}")
        setup = game.setup
        self.evaluator = evaluator
        self.plies = plies
        self.players: list[str] = list(setup.players)
        index = {p: i for i, p in enumerate(self.players)}
        self.player_index = {s: index[setup.player_of(s)] for s in setup.in_play}
        # the seat whose number stands for each player (its first colour)
        self._seat_of_player = [setup.players[p][0] for p in self.players]
        self._leaf: dict[tuple, Vector] = {}
        self._value: dict[int, dict[tuple, Vector]] = {}
        self.evaluations = 0  # calls of the evaluator (for the benchmark)

    # --- the evaluator, per player ----------------------------------------------------

    def leaf(self, game: Game) -> Vector:
        """``V``: the evaluator's chances per player (a finished game: its result)."""
        key = state_key(game)
        v = self._leaf.get(key)
        if v is None:
            v = self._leaf[key] = self.leaves([game])[0]
        return v

    def leaves(self, games: Sequence[Game]) -> list[Vector]:
        """``V`` of several games, the ones not seen yet in one call of the evaluator's
        batched form (``win_chances_many``) where it has one."""
        keys = [state_key(g) for g in games]
        memo = self._leaf
        todo: dict[tuple, Game] = {}
        for k, g in zip(keys, games, strict=True):
            if k not in memo and k not in todo:
                if g.over:
                    memo[k] = tuple(1.0 if p == g.winner else 0.0 for p in self.players)
                else:
                    todo[k] = g
        if todo:
            batch = list(todo.values())
            raw = self._evaluate(batch)
            self.evaluations += len(batch)
            for k, chances in zip(todo, raw, strict=True):
                memo[k] = self._players(chances)
        return [memo[k] for k in keys]

    def _evaluate(self, batch: list[Game]) -> Sequence[Sequence[float]]:
        """The evaluator's chances of every game of ``batch`` (batched where it can)."""
        many = getattr(self.evaluator, "win_chances_many", None)
        if many is not None:
            return many(batch)
        return [self.evaluator.win_chances(g) for g in batch]

    def _players(self, chances: Sequence[float]) -> Vector:
        raw = [max(0.0, float(chances[s])) for s in self._seat_of_player]
        total = sum(raw)
        if total <= 0.0:
            return tuple(1.0 / len(raw) for _ in raw)
        return tuple(x / total for x in raw)  # exactly a distribution: luck sums to zero

    # --- the search -------------------------------------------------------------------

    def value(self, game: Game, plies: int | None = None) -> Vector:
        """The equity of a roll point with ``plies`` (default: the instance's) of search:
        the evaluator's value at 0, else the expectation over the six rolls of the best
        move's value one ply shallower (see the module)."""
        plies = self.plies if plies is None else plies
        if plies == 0 or game.over:
            return self.leaf(game)
        key = state_key(game)
        memo = self._value.setdefault(plies, {})
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._search(game, plies)
        return v

    def values(self, games: Sequence[Game]) -> list[Vector]:
        """:meth:`value` of several games; at one ply, the evaluator is asked once for
        the states all of them need (one batch instead of one per game)."""
        if self.plies != 1:
            return [self.value(g) for g in games]
        memo = self._value.setdefault(1, {})
        keys = [state_key(g) for g in games]
        todo = {}
        for k, g in zip(keys, games, strict=True):
            if k not in memo and k not in todo and not g.over:
                todo[k] = g
        if todo:
            plans, afters = self._plans(todo)
            values = iter(self.leaves(afters))
            k_players = len(self.players)
            for k, me, counts in plans:
                memo[k] = expect_best(values, counts, me, k_players)
        return [self.leaf(g) if g.over else memo[k] for k, g in zip(keys, games, strict=True)]

    def _plans(self, todo: dict[tuple, Game]) -> tuple[list[tuple], list[Game]]:
        """For each game to value at one ply: (its key, the mover's player index, the
        number of options per roll), and the states after all their options, in order."""
        plans = []
        afters: list[Game] = []
        for k, g in todo.items():
            per_die = [self.options(g, die, leaf=True) for die in range(1, 7)]
            plans.append((k, self.player_index[g.turn_seat], [len(o) for o in per_die]))
            afters += [after for opts in per_die for *_, after in opts]
        return plans, afters

    def _search(self, game: Game, plies: int) -> Vector:
        me = self.player_index[game.turn_seat]
        per_die = [self.options(game, die, leaf=True) for die in range(1, 7)]
        afters = [after for opts in per_die for _, _, after in opts]
        if plies == 1:
            values = iter(self.leaves(afters))
        else:
            values = iter([self.value(after, plies - 1) for after in afters])
        return expect_best(values, [len(opts) for opts in per_die], me, len(self.players))

    def options(
        self, game: Game, die: int, *, leaf: bool = False
    ) -> list[tuple[RawMove | None, int | None, Game]]:
        """``(move, huff, state after)`` for every legal move of the colour on turn with
        ``die`` (one entry with ``None`` when the roll allows no move). Where a huff is
        due, the huffed pawn is the one best for the mover (by ``V`` if ``leaf``, else by
        :meth:`value`)."""
        c = game.turn_seat
        legal = game.legal(c, die)
        if not legal:
            g = game.copy()
            g.push_raw(die)
            return [(None, None, g)]
        out = []
        for m in legal:
            huff = None
            if game.huffing and game.huff_due(c, legal, m):
                huff = self.best_huff(game, die, legal, m, leaf=leaf)
            g = game.copy()
            g.push_raw(die, m, huff)
            out.append((m, huff, g))
        return out

    def best_huff(
        self, game: Game, die: int, legal: list[RawMove], move: RawMove, *, leaf: bool = False
    ) -> int:
        """The huff target best for the mover after ``move`` (the first on a tie)."""
        me = self.player_index[game.turn_seat]
        judge = self.leaf if leaf else self.value
        best_target, best_v = None, -1.0
        for target in sorted(game.huff_targets(game.turn_seat, legal, move)):
            g = game.copy()
            g.push_raw(die, move, target)
            v = judge(g)[me]
            if v > best_v:
                best_target, best_v = target, v
        return best_target  # type: ignore[return-value]


def expect_best(values: Iterator[Vector], counts: Iterable[int], me: int, k: int) -> Vector:
    """The expectation over the six rolls of the option best for player ``me``: the
    options' values come from ``values`` in order, ``counts`` of them per roll (the first
    best on a tie), each a vector of ``k`` players' chances."""
    total = [0.0] * k
    for n in counts:
        best = max((next(values) for _ in range(n)), key=lambda v: v[me])
        for i, x in enumerate(best):
            total[i] += x
    return tuple(x / 6.0 for x in total)
