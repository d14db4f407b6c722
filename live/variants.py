"""The platform's own modes "Quick" and "First capture": rules plus an end condition.

The engine has no option for either end (docs/engine.md, "Platform variants"), so a room
checks the condition after each applied event with the engine's public state
(``Game.pawns_home``, the played ``Move.captures``) and ends the game there. The log is a
valid ``maedn-log/1`` log that stops early (``complete`` false in the validator's
answer); ``meta.variant`` names the mode and ``meta.ended`` says who won and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Game, Move


@dataclass(frozen=True)
class Variant:
    key: str
    title: str
    rules: dict[str, Any]  # options laid over the room's rules
    description: str

    def winner(self, game: Game, played: Move | None) -> str | None:
        """The colour that has won by this mode's end condition after ``played``, if any."""
        if self.key == "quick":
            for colour, home in game.pawns_home().items():
                if home >= QUICK_PAWNS:
                    return colour
        if self.key == "first-capture" and played is not None and played.captures:
            return played.colour
        return None


QUICK_PAWNS = 2

VARIANTS: dict[str, Variant] = {
    "quick": Variant(
        "quick",
        "Quick",
        {"setup": "one-out"},
        "one pawn starts on field A; the first colour with two pawns in its house wins",
    ),
    "first-capture": Variant(
        "first-capture",
        "First capture",
        {},
        "the first colour to capture a pawn wins (or, failing that, the first colour home)",
    ),
}


def get_variant(key: str) -> Variant | None:
    if not key:
        return None
    try:
        return VARIANTS[key]
    except KeyError:
        raise ValueError(f"unknown mode {key!r} (modes: {', '.join(VARIANTS)})") from None


def variant_rules(rules: str | dict[str, Any], variant: Variant | None) -> str | dict[str, Any]:
    """The room's rules value with the variant's options laid over it."""
    if variant is None or not variant.rules:
        return rules
    base = {"preset": rules} if isinstance(rules, str) else dict(rules)
    return {**base, **variant.rules}
