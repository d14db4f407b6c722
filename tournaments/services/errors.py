class ServiceError(Exception):
    """A request that cannot be carried out; the message says what is wrong."""

    def __init__(self, message: str, *, field: str | None = None, event: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.event = event


class NotAllowed(ServiceError):
    """The user may not do this (not an organizer of the league, not at the board, …)."""
