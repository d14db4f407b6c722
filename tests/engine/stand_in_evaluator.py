"""A small stand-in for the learned evaluator (``games.engine.evaluator``), for the
analysis tests only — never shipped as the real one: a player's chance falls with the
fields its colours still have to go (softmax over the players), a finished game gives its
result. Deterministic, cheap, and sensitive to every move, which is what the analysis
tests need of a model."""

from __future__ import annotations

import math

from games.engine import Game
from games.engine.board import PAWNS_PER_COLOUR, YARD


class ProgressEvaluator:
    name = "stand-in progress model"

    def __init__(self, scale: float = 12.0) -> None:
        self.scale = scale
        self.calls = 0

    def win_chances(self, game: Game) -> tuple[float, ...]:
        self.calls += 1
        setup = game.setup
        seats = len(game.pawns)
        if game.over:
            return tuple(
                1.0 if s in setup.in_play and setup.player_of(s) == game.winner else 0.0
                for s in range(seats)
            )
        full = PAWNS_PER_COLOUR * (game.T + PAWNS_PER_COLOUR)
        togo: dict[str, float] = {}
        for player, held in setup.players.items():
            left = []
            for s in held:
                done = sum(p + 1 for p in game.pawns[s] if p != YARD)
                left.append(full - done)
            # first-colour: one colour home is enough; otherwise all of them
            togo[player] = min(left) if game.end == "first-colour" else sum(left) / len(left)
        # the colour on turn is a little ahead (it rolls next)
        mover = setup.player_of(game.turn_seat)
        togo[mover] -= 3.5
        weights = {p: math.exp(-t / self.scale) for p, t in togo.items()}
        total = sum(weights.values())
        return tuple(
            weights[setup.player_of(s)] / total if s in setup.in_play else 0.0 for s in range(seats)
        )
