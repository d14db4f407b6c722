"""The settings of bench/scale.py and bench/pages.py: production's (``config.settings.base``)
with one more URL, ``/bench/trivial/`` answering ``HttpResponse("ok")`` through the same
middleware, the peer every page's throughput is measured against in the same run."""

from config.settings.base import *  # noqa: F403

ROOT_URLCONF = "bench.trivial_urls"
