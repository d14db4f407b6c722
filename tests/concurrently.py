"""Run calls at the same moment on real concurrent database connections (one thread each)."""

from __future__ import annotations

import threading

from django.db import connection


def run_concurrently(*calls):
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except Exception as exc:  # collected and asserted by the test
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes
