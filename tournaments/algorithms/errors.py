"""Exceptions raised by the tournament algorithms.

All of them are ``ValueError`` subclasses, so a caller may catch ``ValueError``;
the messages are meant to be shown to an organizer as they are.
"""

from __future__ import annotations


class AlgorithmError(ValueError):
    """Base class: an input the tournament algorithms cannot work with."""


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
