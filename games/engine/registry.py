"""The computer players by name: ``BOTS`` and :func:`make_bot` (simulation, the CLI, the
online rooms' strengths)."""

from __future__ import annotations

from collections.abc import Mapping

from .bots import Bot, HeuristicBot, RandomBot
from .strong import StrongBot

BOTS: Mapping[str, type[Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
}


def make_bot(spec: str | Bot) -> Bot:
    """A bot from its name (``"random"``, ``"heuristic"``, ``"strong"``) or the bot itself."""
    if isinstance(spec, Bot):
        return spec
    try:
        return BOTS[spec]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown bot {spec!r} (bots: {', '.join(BOTS)})") from None
