"""Monte-Carlo rollouts with common random numbers.

:func:`rollout` plays one game on to its end on a single copy of the position, the
colour on turn choosing with the rollout policy (:mod:`.policy`) and rolling the dice
of a :class:`~.dice.DiceStream`. :func:`estimate_options` runs rollout ``k`` of every
option on the same dice ``k`` (common random numbers: one stream per seat, so every
colour's j-th roll is the same in all options) and collects who won.
Options that lead to the same state (same pawns, same turn state) share their
rollouts: their estimates are identical by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..board import PAWNS_PER_COLOUR
from ..game import Game
from ..simulate import lean_rules, play_lean
from .dice import DiceStream, dice_for, stream_seed
from .policy import Policy

MAX_ROLLOUT_EVENTS = 20_000
"""A rollout still running after this many rolls counts as won by nobody (never seen
under the presets; a guard against an endless game)."""


def state_key(game: Game) -> tuple:
    """Everything the future of ``game`` depends on (for merging transpositions)."""
    return (
        tuple(tuple(sorted(p)) for p in game.pawns),
        game.turn_seat,
        game.tries,
        game.tries_max,
        tuple(game.finished),
        tuple(game.placings),
        tuple(game.home_order),
        game.over,
        game.winner,
    )


def rollout(game: Game, dice: Sequence[DiceStream], policy: Policy) -> str | None:
    """Play ``game`` (changed in place) to its end; the winning player.

    ``dice[seat]`` is the die sequence of that seat: its j-th roll in this rollout is
    ``dice[seat].buf[j]``, however many rolls the others had in between (so two
    options keep the same dice for every colour even when a 6 or the three tries
    make the turns run differently).
    """
    if lean_rules(game):  # every preset: the engine's lean loop, the same game faster
        limit = game.events + MAX_ROLLOUT_EVENTS
        play_lean(game, dice=dice, choose=policy.choose, max_events=limit)
        return game.winner if game.over else None
    return rollout_general(game, dice, policy)


def rollout_general(game: Game, dice: Sequence[DiceStream], policy: Policy) -> str | None:
    """:func:`rollout` by the engine's general loop (``Position.legal``, ``Game.push_raw``):
    what the variants (barriers, the huff, a neutral colour, a platform variant) take, and
    the reference the lean loop is tested against."""
    bufs = [d.buf for d in dice]
    used = [0] * len(bufs)
    legal = game.legal
    push = game.push_raw
    choose = policy.choose
    huffing = game.huffing
    yard = game.yard
    # all pawns in the yard and no 6: no move (nothing to generate) — unless a neutral
    # colour's pawns may be moved too
    shortcut = game.neutral < 0
    limit = game.events + MAX_ROLLOUT_EVENTS
    while not game.over:
        c = game.turn_seat
        i = used[c]
        buf = bufs[c]
        if i >= len(buf):
            if game.events >= limit:
                return None
            buf = bufs[c] = dice[c].extend()
        n = buf[i]
        used[c] = i + 1
        if n != 6 and shortcut and yard[c] == PAWNS_PER_COLOUR:
            push(n)
            continue
        moves = legal(c, n)
        if not moves:
            push(n)
            continue
        m = moves[0] if len(moves) == 1 else choose(game, c, n, moves)
        huff = None
        if huffing and game.huff_due(c, moves, m):
            huff = policy.choose_huff(game, c, sorted(game.huff_targets(c, moves, m)))
        push(n, m, huff)
    return game.winner


@dataclass
class OptionRollouts:
    """Who won each rollout of one option (``winners[k]``, a player or ``None``)."""

    winners: list[str | None]

    def shares(self, players: Sequence[str]) -> dict[str, float]:
        n = len(self.winners)
        return {p: sum(1 for w in self.winners if w == p) / n for p in players}

    def indicator(self, player: str) -> list[float]:
        return [1.0 if w == player else 0.0 for w in self.winners]


def estimate_options(
    games: Sequence[Game],
    rollouts: int,
    seed: int,
    decision: int,
    policy: Policy,
    tick: Callable[[], None] | None = None,
) -> list[OptionRollouts]:
    """Rollouts of every game in ``games`` (the states after each option), rollout ``k``
    of each on the dice stream ``(seed, decision, k)``."""
    keys = [state_key(g) for g in games]
    distinct: dict[tuple, int] = {}
    for i, key in enumerate(keys):
        distinct.setdefault(key, i)
    firsts = sorted(set(distinct.values()))
    results: dict[int, list[str | None]] = {i: [] for i in firsts}
    seats = len(games[0].pawns)
    for k in range(rollouts):
        dice = dice_for(seed, decision, k, seats)
        for i in firsts:
            policy.start(stream_seed(seed, decision, k))  # a random policy: paired as the dice
            results[i].append(rollout(games[i].copy(), dice, policy))
        if tick is not None:
            tick()
    return [OptionRollouts(results[distinct[key]]) for key in keys]
