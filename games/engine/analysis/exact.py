"""Exact win probabilities of small endgames, to check the rollout estimates.

From a position, every state reachable with the dice is enumerated (a pawn can be
captured and come back, and a colour can roll without moving, so states repeat:
the game graph has cycles); the win probability of every player is the fixed point
of ``V(s) = 1/6 · Σ_d V(after(s, d))``, found by value iteration (Gauss–Seidel, to a
change below ``tol``). At a decision the move is

* the rollout policy's (``policy`` given): the value rollouts estimate, or
* the best for the mover's player (``policy=None``): expectimax, each player
  maximising their own chance of winning.

Only for small endgames: it refuses positions with more than ``max_states`` states.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game
from .policy import Policy
from .rollout import state_key


def exact_win(
    game: Game,
    policy: Policy | None = None,
    *,
    max_states: int = 200_000,
    tol: float = 1e-13,
) -> dict[str, float]:
    """Each player's exact chance of winning from ``game`` (the colour on turn about to
    roll), every colour playing ``policy`` (or optimally: ``None``)."""
    setup = game.setup
    players = list(setup.players)
    index, succ, terminal = _game_graph(game, policy, players, max_states)
    mover = [0] * len(succ)
    for j, g_key in enumerate(index):  # the mover's player index per node
        turn = g_key[1]
        mover[j] = players.index(setup.player_of(turn)) if turn >= 0 else 0
    value = _fixed_point(succ, terminal, mover, len(players), tol)
    return dict(zip(players, value[0], strict=True))


def _game_graph(
    game: Game, policy: Policy | None, players: list[str], max_states: int
) -> tuple[dict[tuple, int], list[list[list[int]]], dict[int, Sequence[float]]]:
    """Every state reachable from ``game``: state key → node id, ``succ[i][d-1]`` the
    successor ids of node ``i`` after rolling ``d`` (one per choice) and the players'
    results at the terminal nodes."""
    index: dict[tuple, int] = {}
    nodes: list[Game] = []
    succ: list[list[list[int]]] = []
    terminal: dict[int, Sequence[float]] = {}

    def node(g: Game) -> int:
        key = state_key(g)
        i = index.get(key)
        if i is None:
            if len(nodes) >= max_states:
                raise ValueError(f"more than {max_states} states: too large to solve exactly")
            i = index[key] = len(nodes)
            nodes.append(g)
            succ.append([])
            if g.over:
                terminal[i] = [1.0 if p == g.winner else 0.0 for p in players]
        return i

    node(game.copy())
    i = 0
    while i < len(nodes):
        g = nodes[i]
        if not g.over:
            succ[i] = [[node(h) for h in _after_roll(g, n, policy)] for n in range(1, 7)]
        nodes[i] = None  # type: ignore[call-overload]  # only the graph is needed now
        i += 1
    return index, succ, terminal


def _after_roll(g: Game, n: int, policy: Policy | None) -> list[Game]:
    """The states after the colour on turn rolls ``n``: one per move it may choose (the
    policy's one move, with a ``policy``), or the one without a move."""
    c = g.turn_seat
    legal = g.legal(c, n)
    moves = legal
    if len(legal) > 1 and policy is not None:
        moves = [policy.choose(g, c, n, legal)]
    outs = []
    for m in moves or [None]:
        h = g.copy()
        huff = None  # the huff is judged against every legal move, not the chosen
        if m is not None and h.huffing and h.huff_due(c, legal, m):
            chooser = policy or Policy()
            huff = chooser.choose_huff(h, c, sorted(h.huff_targets(c, legal, m)))
        h.push_raw(n, m, huff)
        outs.append(h)
    return outs


def _fixed_point(
    succ: list[list[list[int]]],
    terminal: dict[int, Sequence[float]],
    mover: list[int],
    k: int,
    tol: float,
) -> list[list[float]]:
    """Value iteration (Gauss–Seidel) of every node's chances, each mover taking the
    successor best for its player, until no value changes by ``tol``."""
    value = [list(terminal.get(j, [1.0 / k] * k)) for j in range(len(succ))]
    while True:
        change = 0.0
        for j, rolls in enumerate(succ):
            if j in terminal:
                continue
            me = mover[j]
            new = [0.0] * k
            for outs in rolls:
                best = value[outs[0]]
                for o in outs[1:]:
                    if value[o][me] > best[me]:
                        best = value[o]
                for x in range(k):
                    new[x] += best[x] / 6.0
            change = max(change, max(abs(a - b) for a, b in zip(new, value[j], strict=True)))
            value[j] = new
        if change < tol:
            return value
