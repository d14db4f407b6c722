"""An algorithm's refusal as the ``why`` of a coded service error: the services prefix
it with what was being checked (``coded("playoffs_invalid", why=why_of(exc))``)."""

from __future__ import annotations

from games.engine.codes import Coded
from tournaments.algorithms.errors import AlgorithmError


def why_of(exc: Exception):
    """The error's message as a parameter: a coded algorithm error or coded engine message
    as it is (shown in the reader's language), else its English text."""
    if isinstance(exc, AlgorithmError) and exc.code is not None:
        return exc
    message = exc.args[0] if exc.args else ""
    return message if isinstance(message, Coded) else str(exc)
