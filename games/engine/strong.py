"""The strong computer player: the learned evaluator plus an expectimax search, two plies
for every move and a third where the call is close.

:class:`StrongBot` ("strong") judges positions by the evaluator's chance of winning
(:mod:`games.engine.evaluator`, trained on self-play) and looks ahead over the dice:

1. every legal move is made on a copy (with the huff where due): the position after it is
   a roll point of the next colour to roll (itself again after a 6);
2. for each of the six values of that roll, the roller's legal replies are made, and the
   roller keeps the reply that is best *for its own player* by the evaluator (no move:
   the roll is spent);
3. a move's value is the mean over the six rolls of the bot's player's chance after the
   chosen replies (two plies);
4. if the two best moves by that are within :data:`DEEPEN_MARGIN` (2.5 points) of each
   other, both are searched one roll deeper (steps 2–3 again below every reply: about
   eight times a move's positions) and the better of the two by that is played;
   otherwise the best by two plies. Ties go to the first in the engine's move order.

Every tree is expanded first and its leaves are valued in one batch
(``Evaluator.win_chances_many``), then folded (:func:`_fold`): one search code for every
depth. A decision costs about 1 ms of CPU at two plies and 5 ms (p99 33 ms) with the
third ply where it is due (docs/engine.md, "Computer players").

Why a third ply only for the two best: measured on 2,085 decisions of 60 league games,
the choice of a full three-ply search was one of the two best by two plies in all but 3,
and within 2.3 points of the best by two plies in all. Over 10,000 paired league games
against three heuristics the third ply gains +1.4 ± 1.0 points over two plies
(docs/engine.md). ``depth=1`` (the evaluator on the positions after the bot's own moves)
and ``depth=2`` remain for the benchmarks and the evaluator's self-play;
:meth:`StrongBot.move_values` with ``depth=3`` values every move three plies deep.

A move that wins a platform variant's game at once ("Quick", "First capture") is played
first. Nothing is trained at run time: the evaluator's weights ship with the package and
load in milliseconds, so the first decision of a fresh process is as fast as the others;
the evaluator's exact parts (pure races, two-colour endgames) are solved when first met
and memoised — an endgame's graph in 5–75 ms, at most one per decision.

Pure Python and numpy, no Django; it reads the game through the public ``Game`` API only
(``copy``, ``legal``, ``push_raw``, ``huff_due``, ``huff_targets``, ``turn_seat``, ``over``).
"""

from __future__ import annotations

from .bots import Bot, HeuristicBot
from .evaluator import Evaluator, evaluator_of
from .game import Game
from .moves import RawMove

__all__ = ["DEEPEN_MARGIN", "StrongBot"]

DEEPEN_MARGIN = 0.025
"""``depth=3``: the two best moves by two plies are searched a roll deeper when their
values differ by at most this (2.5 points of winning chance; module docstring)."""


class StrongBot(Bot):
    """The evaluator with an expectimax search over the next rolls (module docstring)."""

    name = "strong"

    def __init__(self, evaluator: Evaluator | None = None, depth: int = 3) -> None:
        if depth not in (1, 2, 3):
            raise ValueError(f"depth must be 1, 2 or 3, not {depth!r}")
        self._evaluator = evaluator
        self.depth = depth
        self._heuristic = HeuristicBot()

    def evaluator(self, game: Game) -> Evaluator:
        """The model given to the bot, else the shipped one for the game's field
        (``evaluator_of``: a field's specialist where one ships)."""
        if self._evaluator is not None:
            return self._evaluator
        return evaluator_of(game)

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
        if self.depth < 3:
            return _argmax(self.move_values(game, seat, die, moves))
        values = self.move_values(game, seat, die, moves, depth=2)
        order = sorted(range(len(values)), key=lambda i: (-values[i], i))
        best = order[0]
        if len(order) < 2 or values[best] - values[order[1]] > DEEPEN_MARGIN:
            return best
        pair = sorted(order[:2])  # the engine's order decides a tie, as above
        deep = self._searched(game, seat, die, moves, pair, 2)
        return pair[_argmax(deep)]

    def move_values(
        self, game: Game, seat: int, die: int, moves: list[RawMove], depth: int | None = None
    ) -> list[float]:
        """The value of every move of ``moves`` for ``seat``'s player, searched ``depth``
        plies (default: the bot's; module docstring)."""
        depth = self.depth if depth is None else depth
        if depth == 1:
            ev = self.evaluator(game)
            afters = [self.after(game, seat, die, moves, m) for m in moves]
            return [c[seat] for c in ev.win_chances_many(afters)]
        return self._searched(game, seat, die, moves, range(len(moves)), depth - 1)

    def _searched(self, game, seat, die, moves, which, plies: int) -> list[float]:
        """The values of the moves ``which`` (indices into ``moves``) for ``seat``'s
        player, ``plies`` rolls searched below each: every tree expanded first, its
        leaves valued in one batch, then folded (:func:`_fold`)."""
        ev = self.evaluator(game)
        found: list[Game] = []
        trees = [
            self._expand(self.after(game, seat, die, moves, moves[i]), plies, found) for i in which
        ]
        at = ev.win_chances_many(found)
        return [_fold(t, at)[seat] for t in trees]

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


def _argmax(values: list[float]) -> int:
    """The index of the largest value, the first of equals."""
    best = 0
    for i, v in enumerate(values):
        if v > values[best]:
            best = i
    return best


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
