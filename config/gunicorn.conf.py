"""gunicorn's settings (``gunicorn -c config/gunicorn.conf.py config.wsgi``, as the README
runs it; ``config/prod_local.sh`` passes the same logger class): its access log, when one is
asked for (``--access-logfile``), writes paths with their secret tokens cut out
(``config/redaction.py``: ``/r/…/``, the calendar feed, invitations, …)."""

logger_class = "config.redaction.GunicornLogger"
