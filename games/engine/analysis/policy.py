"""The rollout policy: how every colour plays in a rollout.

:class:`HeuristicPolicy` plays exactly like :class:`games.engine.bots.HeuristicBot`
(the engine's heuristic computer player); rollouts call it with the engine's move
tuples and no random generator (the heuristic bot is deterministic).
"""

from __future__ import annotations

from ..bots import HeuristicBot
from ..game import Game
from ..moves import RawMove


class Policy:
    """Chooses one of at least two legal moves, and the huffed pawn."""

    name = "policy"

    def choose(self, game: Game, seat: int, die: int, moves: list[RawMove]) -> RawMove:
        raise NotImplementedError

    def choose_huff(self, game: Game, seat: int, targets: list[int]) -> int:
        return targets[0]


class HeuristicPolicy(Policy):
    """The heuristic bot's choices (one copy and a full evaluation per legal move)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def choose(self, game, seat, die, moves):
        return self.bot.choose(game, seat, die, moves, None)

    def choose_huff(self, game, seat, targets):
        return self.bot.choose_huff(game, seat, targets, None)


def default_policy() -> Policy:
    """The policy rollouts use unless told otherwise."""
    return HeuristicPolicy()
