"""gunicorn's settings (``gunicorn -c config/gunicorn.conf.py config.wsgi``, as the README
runs it; ``config/prod_local.sh`` passes the same logger class): its access log, when one is
asked for (``--access-logfile``), writes paths with their secret tokens cut out
(``config/redaction.py``: ``/r/…/``, the calendar feed, invitations, …)."""

logger_class = "config.redaction.GunicornLogger"

# A worker is replaced after this many requests (a random 0–jitter more, so the workers do
# not restart together): a worker that once rendered a large answer keeps its peak memory
# for ever otherwise (issue 31). Command-line flags still override both.
max_requests = 1000
max_requests_jitter = 100
