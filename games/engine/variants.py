"""The platform's own variants "Quick" and "First capture": option values plus an end
condition (docs/engine.md, "Platform variants").

``rules.md`` defines neither, and a log's ``rules`` may only hold its options, so a variant
is not a value of ``end``: a game in a variant is a game of its rules (the variant's
options laid over them, :func:`variant_rules`) that a :class:`~games.engine.game.Game` with
``variant`` set ends early — ``Game.is_over()``, ``Game.winner`` and ``Game.ended_by``
say so, and simulation and the bots play to that end. The log of such a game is a valid
``maedn-log/1`` log that stops early (the validator, which knows only the spec, calls it
incomplete); its ``meta.variant`` names the variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .codes import coded
from .moves import RawMove
from .rules import RulesError, RuleSet

QUICK_PAWNS = 2
"""Pawns home that win a "Quick" game."""


@dataclass(frozen=True)
class Variant:
    key: str
    title: str
    options: Mapping[str, Any]  # laid over the game's rules
    description: str

    def decides(self, home: int, move: RawMove) -> bool:
        """Whether the move ``move`` of a colour that now has ``home`` pawns home ends the
        game, that colour winning."""
        if self.key == "quick":
            return home >= QUICK_PAWNS
        return move[3] >= 0  # first-capture: the move captured a pawn


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


def get_variant(key: str | Variant | None) -> Variant | None:
    """The variant named ``key`` (None for none); an unknown name is a RulesError."""
    if key is None or key == "" or isinstance(key, Variant):
        return key or None
    try:
        return VARIANTS[key]
    except KeyError:
        raise RulesError(
            coded("rules_unknown_variant", what=repr(key), variants=", ".join(VARIANTS))
        ) from None


def variant_rules(
    rules: RuleSet | str | Mapping[str, Any], variant: str | Variant | None
) -> RuleSet | str | Mapping[str, Any]:
    """``rules`` with the variant's options laid over them (unchanged without a variant)."""
    v = get_variant(variant)
    if v is None or not v.options:
        return rules
    if isinstance(rules, RuleSet):
        return rules.with_options(**v.options)
    base = {"preset": rules} if isinstance(rules, str) else dict(rules)
    return {**base, **v.options}
