"""An algorithm's refusal as the ``why`` of a coded service error: the services prefix
it with what was being checked (``coded("playoffs_invalid", why=why_of(exc))``)."""

from __future__ import annotations

from games.engine.codes import Coded


def why_of(exc: Exception):
    """The error's message as a parameter: a coded message as it is (shown in the
    reader's language), else its English text."""
    message = exc.args[0] if exc.args else ""
    return message if isinstance(message, Coded) else str(exc)
