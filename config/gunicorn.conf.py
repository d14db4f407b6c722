"""gunicorn's settings (``gunicorn -c config/gunicorn.conf.py config.wsgi``, as the README
runs it; ``config/prod_local.sh`` passes the same logger class): its access log, when one is
asked for (``--access-logfile``), writes paths with their secret tokens cut out
(``config/redaction.py``: ``/r/…/``, the calendar feed, invitations, …)."""

from django.db import connections

logger_class = "config.redaction.GunicornLogger"

# A worker is replaced after this many requests (a random 0–jitter more, so the workers do
# not restart together): a worker that once rendered a large answer keeps its peak memory
# for ever otherwise (issue 31). Command-line flags still override both.
max_requests = 1000
max_requests_jitter = 100

# The application is imported once, in the master, and each worker is a fork of it: a worker
# that max_requests replaces starts in milliseconds instead of importing Django and every
# view again (1-2 s of CPU; at 500 requests a second that was 2-3 ms of CPU a request).
# Nothing is connected at import; the master closes any database connection before it
# forks, so no worker shares one. Code changes need a restart, not a HUP.
preload_app = True


def pre_fork(server, worker):
    connections.close_all()
