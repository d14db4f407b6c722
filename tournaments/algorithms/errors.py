"""Exceptions raised by the tournament algorithms: a **code** and **parameters**.

``DrawError("table_sizes_impossible", count=7, low=3, high=4, possible="3, 4, 6")``
is worded once, in :mod:`tournaments.algorithms.messages` (English, marked for
translation); ``str(exc)`` is the English text (logs, tests), and a service turns the
error into a coded ``ServiceError`` (``tournaments.services.errors.from_algorithm``) that
a page or the API shows in the reader's language. A parameter may itself be an
algorithm error (the reason inside "preference of player 3: …"); it is kept as
``{"code", "params"}`` data.

All of them are ``ValueError`` subclasses, so a caller may catch ``ValueError``. A
message that is not a code of the catalogue (``ratings.algorithms`` words its own) is
kept as it is, with ``code`` ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.algorithms.messages import MESSAGES


class AlgorithmError(ValueError):
    """Base class: an input the tournament algorithms cannot work with."""

    def __init__(self, code: str, /, **params: Any):
        if code not in MESSAGES:  # an uncoded message (another app's own wording)
            super().__init__(code)
            self.code: str | None = None
            self.params: dict[str, Any] = {}
            return
        self.code = code
        self.params = {key: as_data(value) for key, value in params.items()}
        super().__init__(english(code, self.params))

    def data(self) -> dict[str, Any] | str:
        """``{"code", "params"}`` as data (an uncoded error: its text)."""
        if self.code is None:
            return str(self)
        return {"code": self.code, "params": self.params}


def as_data(value: Any) -> Any:
    """A parameter as data: an algorithm error as ``{"code", "params"}``, a tuple as a list."""
    if isinstance(value, AlgorithmError):
        return value.data()
    if isinstance(value, tuple | list):
        return [as_data(v) for v in value]
    return value


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English wording of ``code`` with ``params`` (nested codes worded too)."""
    return MESSAGES[code] % {key: _english_param(value) for key, value in params.items()}


def part(code: str, /, **params: Any) -> dict[str, Any]:
    """A coded part of a message (``places 3–4``), as a parameter of another."""
    return {"code": code, "params": {key: as_data(value) for key, value in params.items()}}


def _english_param(value: Any) -> Any:
    if isinstance(value, Mapping) and "code" in value:
        return english(value["code"], value.get("params") or {})
    if isinstance(value, list):  # coded parts, joined as a page joins them
        return "; ".join(str(_english_param(v)) for v in value)
    return value


class SchedulingError(AlgorithmError):
    """A schedule (round-robin, triple-threat) cannot be built as requested."""


class SeedingError(AlgorithmError):
    """Die rolls for a seeding or roll-off are missing, malformed or unresolved."""


class ColourError(AlgorithmError):
    """A colour, an allied pair or a colour assignment is not possible."""


class StartingColourError(AlgorithmError):
    """The starting colour of a game cannot be decided from the given facts."""


class BracketError(AlgorithmError):
    """A playoff bracket or series is misconfigured or its results are impossible."""


class StandingsError(AlgorithmError):
    """Standings input (results, precedence, metrics) is invalid."""


class DrawError(AlgorithmError):
    """An open-tournament table draw or final table cannot be made as requested."""


class GrandPrixError(AlgorithmError):
    """A Grand Prix seating or table state is impossible."""


class RecurrenceError(AlgorithmError):
    """Round dates cannot be computed from the given rhythm."""


class WorldRankingError(AlgorithmError):
    """Tournament results for the world rankings are invalid."""
