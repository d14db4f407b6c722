"""Rule sets: the options of rules.md §2, the presets, and their description in words.

A :class:`RuleSet` is a frozen set of option values plus the name of the preset it
was derived from. Variants are nothing but option values, like python-chess's
variant classes are nothing but a few overridden rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ._text import describe
from .codes import coded


class RulesError(ValueError):
    """An unknown preset or option, or a value an option does not take."""


CaptureRule = bool | Literal["huff"]

STUCK_TRIES = 3
"""Rolls a stuck colour has for a 6 under ``three_tries`` (rules.md §4)."""


@dataclass(frozen=True)
class Option:
    """One option of rules.md §2: its name, the values it takes and what it means.

    ``values`` is the tuple of allowed values; ``None`` for ``neutral``, which takes
    a colour name (any non-empty string; checked against the board when a game is
    set up) or ``None``.
    """

    name: str
    values: tuple[Any, ...] | None
    description: str

    def check(self, value: object) -> None:
        """Raise :class:`RulesError` unless ``value`` is allowed for this option."""
        if self.values is None:  # neutral
            if value is None or (isinstance(value, str) and value):
                return
            raise RulesError(coded("rules_option_colour", option=self.name, what=repr(value)))
        # bool is an int subclass and 1 == True: compare types too.
        if any(value == v and type(value) is type(v) for v in self.values):
            return
        allowed = " / ".join(_show(v) for v in self.values)
        raise RulesError(
            coded("rules_option_value", option=self.name, allowed=allowed, what=_show(value))
        )


def _show(value: object) -> str:
    return describe(value)


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "setup",
            ("yard", "one-out"),
            "all four pawns start in the yard, or one on field A and three in the yard",
        ),
        Option(
            "compulsory_entry",
            (False, True),
            "on a 6, a yard pawn must be brought onto A when that is possible",
        ),
        Option(
            "clear_start",
            (False, True),
            "while the yard is not empty, an own pawn on A must move off it when it can",
        ),
        Option(
            "three_tries",
            (False, True),
            "a colour that cannot move rolls up to three times for a 6",
        ),
        Option("jump_in_goal", (False, True), "pawns may jump over pawns inside the house"),
        Option(
            "barriers",
            (False, True),
            "two pawns of one colour on one track field form a barrier",
        ),
        Option(
            "compulsory_capture",
            (False, True, "huff"),
            "true: capturing is compulsory; huff: a pawn that could have captured goes back "
            "to its yard",
        ),
        Option(
            "capture_backwards",
            (False, True),
            "a track pawn may move backwards by the roll if that captures",
        ),
        Option(
            "end",
            ("first-colour", "both-colours", "all-places"),
            "when the game ends",
        ),
        Option("neutral", None, "a colour with no player (3-player Schmidt variant)"),
    )
}


@dataclass(frozen=True)
class RuleSet:
    """The values of every option of rules.md §2, and the preset they came from."""

    preset: str = "league"
    setup: Literal["yard", "one-out"] = "yard"
    compulsory_entry: bool = True
    clear_start: bool = True
    three_tries: bool = True
    jump_in_goal: bool = False
    barriers: bool = False
    compulsory_capture: CaptureRule = False
    capture_backwards: bool = False
    end: Literal["first-colour", "both-colours", "all-places"] = "first-colour"
    neutral: str | None = None

    def __post_init__(self) -> None:
        if self.preset not in PRESET_OPTIONS:
            raise RulesError(_unknown_preset(self.preset))
        for name, option in OPTIONS.items():
            option.check(getattr(self, name))

    @property
    def huff(self) -> bool:
        """Whether the Schmidt huff penalty applies (``compulsory_capture == "huff"``)."""
        return self.compulsory_capture == "huff"

    @classmethod
    def from_spec(cls, spec: object) -> RuleSet:
        """A rule set from a log's ``rules``: a preset name or ``{"preset": NAME, OPTION: VALUE}``.

        Raises :class:`RulesError` (a ``ValueError``) on an unknown preset or option
        or a value the option does not take.
        """
        if isinstance(spec, RuleSet):
            return spec
        if isinstance(spec, str):
            return cls.preset_named(spec)
        if not isinstance(spec, Mapping):
            raise RulesError(coded("rules_not_spec", what=_show(spec)))
        if "preset" not in spec:
            raise RulesError(coded("rules_no_preset"))
        preset = spec["preset"]
        if not isinstance(preset, str):
            raise RulesError(coded("rules_preset_not_name", what=_show(preset)))
        overrides = {k: v for k, v in spec.items() if k != "preset"}
        return cls.preset_named(preset).with_options(**overrides)

    @classmethod
    def preset_named(cls, name: str) -> RuleSet:
        if name not in PRESET_OPTIONS:
            raise RulesError(_unknown_preset(name))
        return cls(preset=name, **PRESET_OPTIONS[name])

    def with_options(self, **overrides: object) -> RuleSet:
        """A copy with some options changed (validated like :meth:`from_spec`)."""
        for name, value in overrides.items():
            if name not in OPTIONS:
                raise RulesError(
                    coded("rules_unknown_option", what=_show(name), options=", ".join(OPTIONS))
                )
            OPTIONS[name].check(value)
        return dataclasses.replace(self, **overrides)  # type: ignore[arg-type]

    def options(self) -> dict[str, Any]:
        """Option name → value, for every option."""
        return {name: getattr(self, name) for name in OPTIONS}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset's values."""
        base = PRESET_OPTIONS[self.preset]
        return {k: v for k, v in self.options().items() if base[k] != v}

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest ``rules`` value of a log that gives this rule set."""
        extra = self.overrides()
        return {"preset": self.preset, **extra} if extra else self.preset


def _unknown_preset(name: object) -> str:
    return coded("rules_unknown_preset", what=_show(name), presets=", ".join(PRESET_OPTIONS))


_LEAGUE: dict[str, Any] = {
    "setup": "yard",
    "compulsory_entry": True,
    "clear_start": True,
    "three_tries": True,
    "jump_in_goal": False,
    "barriers": False,
    "compulsory_capture": False,
    "capture_backwards": False,
    "end": "first-colour",
    "neutral": None,
}

PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "league": _LEAGUE,
    "league-2t+": _LEAGUE | {"end": "both-colours"},
    "league-3t+": _LEAGUE | {"end": "both-colours"},
    "league-gp": _LEAGUE | {"end": "all-places"},
    "classic": _LEAGUE
    | {"setup": "one-out", "three_tries": False, "jump_in_goal": True, "end": "all-places"},
    "online": _LEAGUE | {"compulsory_entry": False, "clear_start": False, "jump_in_goal": True},
}

PRESET_TITLES: dict[str, str] = {
    "league": "XMädn basic rules (league, 2T, 3T)",
    "league-2t+": "XMädn double-threat plus (2T+): a player must finish both colours",
    "league-3t+": "XMädn triple-threat plus (3T+): a player must finish both colours",
    "league-gp": "XMädn Grand Prix: play on until every place is decided",
    "classic": "Schmidt base game",
    "online": "online rules (computer players fill empty seats)",
}

PRESETS: dict[str, RuleSet] = {name: RuleSet.preset_named(name) for name in PRESET_OPTIONS}


def explain(ruleset: RuleSet | str | Mapping[str, Any]) -> list[str]:
    """Sentences describing a rule set in words, one per option (for rules pages and the CLI)."""
    r = RuleSet.from_spec(ruleset)
    lines = [f"Preset {r.preset}: {PRESET_TITLES[r.preset]}."]
    if r.overrides():
        changed = ", ".join(f"{k} = {_show(v)}" for k, v in r.overrides().items())
        lines.append(f"Changed from the preset: {changed}.")
    lines += [_option_sentence(r, option) for option in _EXPLAINED_BEFORE_SIX]
    lines.append("A 6 always earns another roll.")
    lines += [_option_sentence(r, option) for option in _EXPLAINED_AFTER_SIX]
    if r.neutral:
        lines.append(
            f"{r.neutral} is a neutral colour: it has no player and takes no turns; any colour "
            f"on turn may move a {r.neutral} pawn instead of its own, and a colour is finished "
            f"only when its own and all {r.neutral} pawns are home."
        )
    return lines


_OPTION_SENTENCES: dict[str, tuple[dict[Any, str], str]] = {
    # option: (its value → the sentence, the sentence for any other value)
    "setup": (
        {"yard": "All four pawns start in the yard."},
        "Each colour starts with one pawn on its start field A and three in the yard.",
    ),
    "compulsory_entry": (
        {
            True: "A pawn leaves the yard only with a 6; on a 6 a yard pawn must be brought "
            "onto A whenever that is possible."
        },
        "A pawn leaves the yard only with a 6, but bringing one out is never compulsory.",
    ),
    "clear_start": (
        {
            True: "While a colour still has pawns in its yard, its pawn on field A must move "
            "off it first whenever it can."
        },
        "A pawn on its own start field A need not make way for the yard.",
    ),
    "three_tries": (
        {
            True: "A colour that cannot move (no pawn on the track, house pawns unable to "
            "move) rolls up to three times for a 6."
        },
        "Every colour rolls once per turn, even when it cannot move.",
    ),
    "jump_in_goal": (
        {True: "Pawns may jump over other pawns inside the house."},
        "Pawns may not jump over pawns inside the house.",
    ),
    "barriers": (
        {
            True: "Two pawns of one colour on one track field form a barrier that no pawn may "
            "pass, land on or capture — not even the builder's own."
        },
        "There are no barriers: two pawns of one colour never share a field.",
    ),
    "compulsory_capture": (
        {
            True: "Capturing is compulsory: when a capture is possible, a capture must be made.",
            "huff": "Capturing is not compulsory, but a pawn that could have captured and did "
            "not (when no capture was made) is huffed: it goes back to its yard.",
        },
        "Capturing is never compulsory.",
    ),
    "capture_backwards": (
        {
            True: "A track pawn may also move backwards by the roll to capture, but never onto "
            "or over its own start field A."
        },
        "Pawns only move forwards.",
    ),
    "end": (
        {
            "first-colour": "The game ends when the first colour has all four pawns home; "
            "its player wins.",
            "both-colours": "The game ends when a player has finished all of their colours; "
            "that player wins. Colours that finish earlier stop taking turns.",
            "all-places": "Play goes on until every colour but one has finished; the finishing "
            "order gives the placings, and the first player to finish all their colours wins.",
        },
        "",  # no other value passes the option's check
    ),
}
_EXPLAINED_BEFORE_SIX = ("setup", "compulsory_entry", "clear_start", "three_tries")
_EXPLAINED_AFTER_SIX = (
    "jump_in_goal",
    "barriers",
    "compulsory_capture",
    "capture_backwards",
    "end",
)


def _option_sentence(r: RuleSet, option: str) -> str:
    """The sentence of :func:`explain` for one option's value in ``r`` (values are checked
    to their type, so ``True`` is never ``1``)."""
    sentences, otherwise = _OPTION_SENTENCES[option]
    return sentences.get(getattr(r, option), otherwise)
