"""Expected outages as one log line: a logging filter that turns a record carrying an
exception of an outage — Redis, the broker or the database refusing, resetting or timing
out a connection (``live.errors.expected``) — into one line with the error's text instead
of a traceback. Live play's own code logs such failures as one line already
(``live.errors.log_failure``); this catches the libraries' (Daphne's "Exception inside
application", channels-redis, Celery's lost broker connection). A Redis restart used to
leave about 200 tracebacks in each server's and worker's log (issue 33).

On the console handler of ``LOGGING`` (config/settings/base.py) and, in a Celery worker,
on the handlers Celery sets up (config/celery_app.py)."""

from __future__ import annotations

import logging

from live.errors import expected, one_line


class OneLineExpectedErrors(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and expected(exc):
            record.msg = f"{record.getMessage()} ({one_line(exc)})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def install_on(logger: logging.Logger) -> None:
    """The filter on every handler of ``logger`` (once)."""
    for handler in logger.handlers:
        if not any(isinstance(f, OneLineExpectedErrors) for f in handler.filters):
            handler.addFilter(OneLineExpectedErrors())
