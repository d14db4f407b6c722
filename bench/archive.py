"""A league's archive.json at scale (issue 31): the first download at a revision (streamed
from the database, stored on the way) against the next one (the stored file), in one
process: bytes, seconds, queries and the process's peak RSS, and their ratio.

    DEBUG=0 CACHE_URL=locmem:// EMAIL_BACKEND=console SECRET_KEY=bench ALLOWED_HOSTS=127.0.0.1 \\
    ARCHIVE_DIR=/tmp/archives-bench DATABASE_URL=postgres://postgres@127.0.0.1/maedn_scale_100x \\
    .venv/bin/python bench/archive.py [--league big-league]

Needs a migrated site (bench/scale.py builds one) and an empty ``ARCHIVE_DIR``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--league", default="big-league")
    args = parser.parse_args()
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.get("/api/v1/leagues/", secure=True)  # imports, templates
    url = f"/api/v1/leagues/{args.league}/archive.json"
    took = []
    for label in ("first download (streamed, stored on the way)", "next download (the file)"):
        before, start = peak_rss_mb(), time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, secure=True)
            size = sum(len(chunk) for chunk in response.streaming_content)
        took.append(time.perf_counter() - start)
        print(
            f"{label}: {type(response).__name__} {response.status_code}, {size:,} bytes in "
            f"{took[-1]:.2f} s, {len(queries)} queries, peak RSS +{peak_rss_mb() - before:.1f} MB"
        )
    print(f"next ÷ first: {took[1] / took[0]:.3f} of the time (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
