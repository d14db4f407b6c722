"""gunicorn reads this file from the directory it starts in (the repository's root, as the
README, ``config/prod_local.sh`` and the benches run it): its access log, when one is asked
for (``--access-logfile``), writes paths with their secret tokens cut out
(``config/redaction.py``: ``/r/…/``, the calendar feed, invitations, …)."""

logger_class = "config.redaction.GunicornLogger"
