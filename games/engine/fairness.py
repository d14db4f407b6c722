"""Dice fairness: how often each face 1–6 came up in a set of logs, and Pearson's
chi-square goodness-of-fit test against a fair die (every face 1/6).

Pure Python, no Django, no SciPy: the p-value of the chi-square distribution with 5 degrees
of freedom (six faces, one constraint) has an exact closed form,

    P(X >= x) = erfc(sqrt(x / 2)) + sqrt(2 / pi) * exp(-x / 2) * (sqrt(x) + x ** 1.5 / 3),

the odd-degrees case of the chi-square survival function (Abramowitz & Stegun 26.4.4),
so ``math.erfc`` is all it needs. The test compares the counts with n/6 each; it is a
fair approximation once every expected count is at least 5 (``MIN_ROLLS`` = 30 rolls).

:func:`roll_counts` reads one log (whole, per colour, per player); :func:`fairness`
turns counts into the statistic; :func:`combine` adds counts of several logs (a player's
games, a league).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

FACES = (1, 2, 3, 4, 5, 6)
DEGREES_OF_FREEDOM = len(FACES) - 1
#: below this many rolls some expected count is under 5 and the p-value is only indicative
MIN_ROLLS = 30


@dataclass(frozen=True)
class Fairness:
    """The rolls of one die (or one set of logs) against a fair die."""

    counts: tuple[int, ...]  # how often 1, 2, …, 6 came up
    rolls: int
    chi_square: float
    p_value: float  # the chance of a deviation at least this large from a fair die

    @property
    def expected(self) -> float:
        return self.rolls / len(FACES)

    @property
    def enough(self) -> bool:
        """Enough rolls for the chi-square approximation (every expected count >= 5)."""
        return self.rolls >= MIN_ROLLS

    def shares(self) -> tuple[float, ...]:
        return tuple(c / self.rolls if self.rolls else 0.0 for c in self.counts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "counts": list(self.counts),
            "rolls": self.rolls,
            "expected": self.expected,
            "chi_square": self.chi_square,
            "p_value": self.p_value,
            "enough": self.enough,
        }


def chi_square_sf_5(x: float) -> float:
    """P(X >= x) for X chi-square distributed with 5 degrees of freedom (exact form)."""
    if math.isnan(x):
        raise ValueError("the chi-square statistic is not a number")
    if x <= 0:
        return 1.0
    tail = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * (
        math.sqrt(x) + x**1.5 / 3
    )
    return min(1.0, max(0.0, tail))


def fairness(counts: Iterable[int]) -> Fairness:
    """The chi-square test of six face counts (1…6) against a fair die. No rolls at all
    give statistic 0 and p-value 1 (nothing speaks against the die)."""
    counts = tuple(counts)
    if len(counts) != len(FACES):
        raise ValueError(f"a die has {len(FACES)} faces; got {len(counts)} counts")
    if any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in counts):
        raise ValueError(f"face counts must be whole numbers >= 0, not {list(counts)}")
    n = sum(counts)
    if n == 0:
        return Fairness(counts, 0, 0.0, 1.0)
    expected = n / len(FACES)
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return Fairness(counts, n, statistic, chi_square_sf_5(statistic))


def _events_and_players(log: Mapping[str, Any] | str | bytes) -> tuple[list, dict]:
    data = json.loads(log) if isinstance(log, str | bytes) else log
    if not isinstance(data, Mapping) or not isinstance(data.get("events"), list):
        raise ValueError("a maedn-log/1 log is a JSON object with an events list")
    players = data.get("players") or {}
    return data["events"], players if isinstance(players, Mapping) else {}


@dataclass(frozen=True)
class RollCounts:
    """Face counts of one log: all rolls, per colour and per player (the colours held)."""

    total: tuple[int, ...]
    colours: dict[str, tuple[int, ...]]
    players: dict[str, tuple[int, ...]]


def roll_counts(log: Mapping[str, Any] | str | bytes) -> RollCounts:
    """Count the rolls of a log (parsed or as JSON text). The log should be a valid one
    (the platform only stores those); an event whose die is not 1–6 is an error."""
    events, players = _events_and_players(log)
    per_colour: dict[str, list[int]] = {}
    total = [0] * len(FACES)
    for i, event in enumerate(events):
        die = event.get("die") if isinstance(event, Mapping) else None
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ValueError(f"event {i} has no die roll 1–6: {event!r}")
        total[die - 1] += 1
        colour = str(event.get("colour"))
        per_colour.setdefault(colour, [0] * len(FACES))[die - 1] += 1
    per_player = {str(name): _held_counts(held, per_colour) for name, held in players.items()}
    return RollCounts(tuple(total), {c: tuple(v) for c, v in per_colour.items()}, per_player)


def _held_counts(held: object, per_colour: Mapping[str, list[int]]) -> tuple[int, ...]:
    """The face counts of a player: the sum of the colours it holds (one name or a list)."""
    held = [held] if isinstance(held, str) else list(held or [])
    counts = [0] * len(FACES)
    for colour in held:
        for k, c in enumerate(per_colour.get(colour, ())):
            counts[k] += c
    return tuple(counts)


def combine(counts: Iterable[Iterable[int]]) -> tuple[int, ...]:
    """Add face counts (of several logs, or several colours)."""
    total = [0] * len(FACES)
    for row in counts:
        row = tuple(row)
        if len(row) != len(FACES):
            raise ValueError(f"a die has {len(FACES)} faces; got {len(row)} counts")
        for k, c in enumerate(row):
            total[k] += c
    return tuple(total)
