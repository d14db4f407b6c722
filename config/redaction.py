"""Secret tokens out of the logs: several addresses carry the only credential a visitor has
in the path itself (a private result link ``/r/<token>/``, the calendar feed
``/me/calendar/<token>.ics``, an invitation, an e-mail confirmation, a one-click
unsubscribe, a password reset). Whoever reads an access log must not be able to use them,
so every log the project configures writes such a path with the token cut out
(``/r/…/``):

* Django's logging (``django.request``'s "Not Found: /r/…/", ``django.server``, anything
  through the console handler): the filter ``RedactTokens`` (``LOGGING`` in
  ``config/settings/base.py``);
* gunicorn's access log: ``GunicornLogger`` (``--logger-class
  config.redaction.GunicornLogger``, as ``config/prod_local.sh`` and the README run it);
* nginx (``config/nginx.conf.template``): its access log is off; the ``redacted`` log
  format there applies the same patterns, for whoever turns it on;
* Daphne writes no access log unless ``--access-log`` is given (prod_local.sh does not).

``redact`` is the one list of patterns; the tests check it against every such URL name.
"""

from __future__ import annotations

import logging
import re

#: (pattern, replacement): the path's secret part becomes "…"; kept as simple regular
#: expressions the nginx template repeats (tests/foundation/test_log_redaction.py)
SECRET_PATHS: tuple[tuple[str, str], ...] = (
    (r"/r/[^/?#\s\"]+", "/r/…"),
    (r"/me/calendar/[^/?#\s\"]+\.ics", "/me/calendar/….ics"),
    (r"/me/confirm-email/[^/?#\s\"]+", "/me/confirm-email/…"),
    (r"/invitations/[^/?#\s\"]+", "/invitations/…"),
    (r"/accounts/notifications/unsubscribe/[^/?#\s\"]+", "/accounts/notifications/unsubscribe/…"),
    (r"/accounts/password/reset/[^/?#\s\"]+/[^/?#\s\"]+", "/accounts/password/reset/…/…"),
)
_PATTERNS = [(re.compile(p), r) for p, r in SECRET_PATHS]


def redact(text: str) -> str:
    """``text`` (a path, a request line, a log line) with every secret token replaced."""
    if "/" not in text:
        return text
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """A logging filter that rewrites a record's message without the secret tokens (the
    record is kept: it is the message that changes)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to the handler's own error path
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        # Django attaches the request to django.request's records; a formatter reading
        # it would see the raw path
        if getattr(record, "request", None) is not None:
            record.request = None
        return True


try:  # gunicorn is the production web server; the filter above works without it
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover - gunicorn is a dependency
    _GunicornLogger = object


class GunicornLogger(_GunicornLogger):
    """gunicorn's logger with the access log's request line, path, query and referrer
    redacted (``--logger-class config.redaction.GunicornLogger``)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        # the headers and environ atoms ({referer}i, {raw_uri}e, …)
        for key, value in list(atoms.items()):
            if key.startswith("{") and isinstance(value, str):
                atoms[key] = redact(value)
        return atoms
