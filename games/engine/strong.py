"""The strong computer player: the learned evaluator plus a two-ply expectimax search.

:class:`StrongBot` ("strong") judges positions by the evaluator's chance of winning
(:mod:`games.engine.evaluator`, trained on self-play) and looks one roll further than the
heuristic:

1. every legal move is made on a copy (with the huff where due): the position after it is
   a roll point of the next colour to roll (itself again after a 6);
2. for each of the six values of that roll, the roller's legal replies are made, and the
   roller keeps the reply that is best *for its own player* by the evaluator (no move:
   the roll is spent);
3. a move's value is the mean over the six rolls of the bot's player's chance after the
   chosen replies; the bot plays the move with the highest value (the first of equals in
   the engine's move order).

All the positions of a decision (a few dozen, at most a few hundred on board 6) are
evaluated in one batch (``Evaluator.win_chances_many``), so a decision costs a few
milliseconds (figures in docs/engine.md, "Computer players"). ``depth=1`` stops after step
1 (the evaluator on the positions after the bot's own moves), what the self-play of the
evaluator's next generation uses; ``depth=3`` looks one roll further (every roller's best
reply to each of the next two rolls: about eight times the positions, p99 44–51 ms CPU —
at the 50 ms budget — and +1.5 ± 2.3 points over two plies against three heuristics on
2,000 paired games, docs/engine.md: benchmarks only).

A move that wins a platform variant's game at once ("Quick", "First capture") is played
first. Nothing is trained at run time: the evaluator's weights ship with the package and
load in milliseconds, so the first decision of a fresh process is as fast as the others;
the evaluator's exact parts (pure races, two-colour endgames) are solved when first met
and memoised — an endgame's graph in 5–40 ms, at most one per decision.

Pure Python and numpy, no Django; it reads the game through the public ``Game`` API only
(``copy``, ``legal``, ``push_raw``, ``huff_due``, ``huff_targets``, ``turn_seat``, ``over``).
"""

from __future__ import annotations

from .bots import Bot, HeuristicBot
from .evaluator import Evaluator, evaluator_for
from .game import Game
from .moves import RawMove

__all__ = ["StrongBot"]


class StrongBot(Bot):
    """The evaluator with a two-ply search over the next roll (module docstring)."""

    name = "strong"

    def __init__(self, evaluator: Evaluator | None = None, depth: int = 2) -> None:
        if depth not in (1, 2, 3):
            raise ValueError(f"depth must be 1, 2 or 3, not {depth!r}")
        self._evaluator = evaluator
        self.depth = depth
        self._heuristic = HeuristicBot()

    def evaluator(self, game: Game) -> Evaluator:
        if self._evaluator is None:
            self._evaluator = evaluator_for(game.setup.rules)
        return self._evaluator

    def choose_huff(self, game, seat, targets, rng):
        return self._heuristic.choose_huff(game, seat, targets, rng)

    def choose(self, game, seat, die, moves, rng):
        return moves[self.best_index(game, seat, die, moves)]

    # --- the search ---------------------------------------------------------------------

    def after(self, game: Game, seat: int, die: int, legal: list[RawMove], m: RawMove) -> Game:
        """The game after ``seat`` plays ``m`` with ``die`` (``legal``: all its moves)."""
        g = game.copy()
        huff = None
        if g.huffing and g.huff_due(seat, legal, m):
            huff = self.choose_huff(g, seat, sorted(g.huff_targets(seat, legal, m)), None)
        g.push_raw(die, m, huff)
        return g

    def best_index(self, game: Game, seat: int, die: int, moves: list[RawMove]) -> int:
        """The index in ``moves`` of the move the bot plays."""
        variant = game.platform_variant
        if variant is not None:
            for i, m in enumerate(moves):
                g = self.after(game, seat, die, moves, m)
                if g.over and g.ended_by is not None and g.winner == game.setup.player_of(seat):
                    return i
        values = self.move_values(game, seat, die, moves)
        best = 0
        for i, v in enumerate(values):
            if v > values[best]:
                best = i
        return best

    def move_values(self, game: Game, seat: int, die: int, moves: list[RawMove]) -> list[float]:
        """The value of every move of ``moves`` for ``seat``'s player (module docstring)."""
        ev = self.evaluator(game)
        afters = [self.after(game, seat, die, moves, m) for m in moves]
        if self.depth == 1:
            return [c[seat] for c in ev.win_chances_many(afters)]
        if self.depth > 2:
            found: list[Game] = []
            trees = [self._expand(g, self.depth - 1, found) for g in afters]
            at = ev.win_chances_many(found)
            return [_fold(t, at)[seat] for t in trees]
        leaves: list[Game] = []
        # per move: None (the game is over: its value is exact) or, per roll, the roller
        # and the range of its replies among the leaves
        plan: list[list[tuple[int, int, int]] | None] = []
        for g in afters:
            if g.over:
                plan.append(None)
                leaves.append(g)
                continue
            c = g.turn_seat
            rolls = []
            for d in range(1, 7):
                replies = g.legal(c, d)
                lo = len(leaves)
                if not replies:
                    h = g.copy()
                    h.push_raw(d)
                    leaves.append(h)
                else:
                    for r in replies:
                        leaves.append(self.after(g, c, d, replies, r))
                rolls.append((c, lo, len(leaves)))
            plan.append(rolls)
        chances = ev.win_chances_many(leaves)
        values: list[float] = []
        k = 0
        for rolls in plan:
            if rolls is None:
                values.append(chances[k][seat])
                k += 1
                continue
            total = 0.0
            for c, lo, hi in rolls:
                best = chances[lo]
                for j in range(lo + 1, hi):
                    if chances[j][c] > best[c]:
                        best = chances[j]
                total += best[seat]
                k = hi
            values.append(total / 6.0)
        return values

    def _expand(self, g: Game, plies: int, leaves: list[Game]):
        """The search tree below roll point ``g`` with ``plies`` rolls to expand: a leaf's
        index in ``leaves``, or per roll the roller and its replies' subtrees."""
        if plies == 0 or g.over:
            leaves.append(g)
            return len(leaves) - 1
        c = g.turn_seat
        rolls = []
        for d in range(1, 7):
            replies = g.legal(c, d)
            if not replies:
                h = g.copy()
                h.push_raw(d)
                rolls.append((c, [self._expand(h, plies - 1, leaves)]))
            else:
                kids = [
                    self._expand(self.after(g, c, d, replies, r), plies - 1, leaves)
                    for r in replies
                ]
                rolls.append((c, kids))
        return rolls


def _fold(node, chances: list[tuple[float, ...]]) -> tuple[float, ...]:
    """Expectimax over a tree of :meth:`StrongBot._expand`: per roll the reply best for
    its roller, the mean over the six rolls."""
    if isinstance(node, int):
        return chances[node]
    total: list[float] | None = None
    for c, kids in node:
        best = _fold(kids[0], chances)
        for k in kids[1:]:
            v = _fold(k, chances)
            if v[c] > best[c]:
                best = v
        total = list(best) if total is None else [a + b for a, b in zip(total, best, strict=True)]
    return tuple(x / 6.0 for x in total)
