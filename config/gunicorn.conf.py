"""gunicorn's settings (``gunicorn -c config/gunicorn.conf.py config.wsgi``, as the README and
``make prod-local`` run it): its access log, when one is asked for (``--access-logfile``),
writes paths with their secret tokens cut out (``config/redaction.py``: ``/r/…/``, the
calendar feed, invitations, …); workers are replaced after max-requests, forked from the
loaded application (docs/performance.md, "max-requests")."""

import gc
import logging
import os
import sys

from django.db import connections

logger_class = "config.redaction.GunicornLogger"

# A worker is replaced after this many requests (a random 0–jitter more, so the workers do
# not restart together): a worker that once rendered a large answer keeps its peak memory
# for ever otherwise (issue 31). Command-line flags still override both.
max_requests = 1000
max_requests_jitter = 100

# The application is imported once, in the master, and each worker is a fork of it: a
# replaced worker does not import Django and every view again (1-2 s of CPU each: a trivial
# view answered 500-700 requests a second with max-requests against 3,100-3,300 without).
# Code changes need a restart, not a HUP.
preload_app = True


def pre_fork(server, worker):
    """In the master, before each fork: no worker may share the master's database
    connection (nothing opens one at import; closed all the same), and every object the
    master holds is moved out of the garbage collector's reach (``gc.freeze``): a worker's
    collections no longer walk, and so copy, the whole inherited heap (with preload alone:
    1,700 trivial requests a second)."""
    connections.close_all()
    gc.freeze()


def worker_exit(server, worker):
    """In a worker leaving normally (max-requests, a restart: gunicorn's ``sys.exit(0)`` on
    its way out): close its database connections and flush its logs, then end the process
    without the interpreter's teardown, which freed every inherited object one by one
    (copying the pages the fork shared) — a restart cost about as much as the 1,000 requests
    before it. A worker that failed (another exit code, an error) leaves as gunicorn has it
    leave: the master reads its code."""
    leaving = sys.exc_info()[1]
    if not isinstance(leaving, SystemExit) or leaving.code not in (0, None):
        return
    connections.close_all()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
