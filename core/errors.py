"""The base of every refusal a service raises: what cannot be done and why.

Every app raises and catches this one class (or a subclass: ``NotAllowed`` here, live
play's ``Refused``), so a page, the API or the WebSocket handles a refusal the same way
whichever app refused. A **coded** error carries its ``code`` and ``params`` and the
function that words it in the reader's language (``texts``, given by the catalogue that
made it: ``tournaments.services.errors.coded``); an uncoded one keeps its English
message everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``texts(code, params, fallback)``: a coded error in the active language
Texts = Callable[[str, dict, str], str]


class ServiceError(Exception):
    """A request that cannot be carried out; the message says what is wrong."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        event: int | None = None,
        code: str | None = None,
        params: dict | None = None,
        texts: Texts | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.event = event
        self.code = code
        self.params = dict(params or {})
        self.texts = texts

    def localized(self) -> str:
        """The message in the active language (a coded error), else as it was worded."""
        if self.code and self.texts is not None:
            return self.texts(self.code, self.params, self.message)
        return self.message


class NotAllowed(ServiceError):
    """The user may not do this (not an organizer of the league, not at the board, …)."""
