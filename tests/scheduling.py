"""The order of the tests under ``--dist worksteal`` (pyproject.toml): the long ones first,
shared out evenly between the test processes.

pytest-xdist's worksteal scheduler gives each of the k test processes one contiguous part
of the collected order (the first ``N // k`` tests to the first, and so on) and, when a
process runs out, moves the last half of the longest remaining queue to it. Left in file
order, a part may hold most of the browser walks and a one-minute test may start last,
while the other processes wait for it. So the tests are laid out here, in every process
alike (each collects for itself; xdist requires the same order everywhere):

* whole modules, so a module's fixtures (its Chromium, its servers, its world built once)
  are made once, in one process;
* spread over the k parts by their rough cost (largest first, each into the part with the
  least so far), each part holding exactly as many tests as the scheduler will give it;
* in each part, in pytest-django's order (tests in a rolled-back transaction, then the
  transactional ones, then those without a database: :func:`django_order`), and within
  each of the three the costliest modules first, so the long tests start early and what
  is left to move at the end are short tests.

The cost of a module is what it took in a full run (``tests/durations.json``, seconds
per module, written from a JUnit report by ``python -m tests.scheduling report.xml``); a
module that is not there yet is guessed from its tests' markers (the kinds that start a
browser, servers, a worker or the real engine). Stale figures only make the order less
good: they decide the order, never what runs. Without xdist the order is left as
it is (another ``--dist`` gets the same order, which is only less useful there)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.json"

#: rough seconds of one test of each kind (the suite's measured averages, rounded)
KIND_SECONDS = {"browser": 8.0, "live_servers": 8.0, "celery_worker": 5.0, "real_engine": 3.0}
#: and of any other test
OTHER_SECONDS = 0.05


def seconds_of(item: pytest.Item) -> float:
    kinds = [s for kind, s in KIND_SECONDS.items() if item.get_closest_marker(kind)]
    if "celery_worker" in getattr(item, "fixturenames", ()):
        kinds.append(KIND_SECONDS["celery_worker"])
    return max(kinds, default=OTHER_SECONDS)


def measured() -> dict[str, dict[str, float]]:
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


def part_sizes(total: int, parts: int) -> list[int]:
    """How many tests worksteal gives each process at the start (``check_schedule``: each
    idle node in turn gets ``len(pending) // nodes_remaining``)."""
    sizes = []
    for remaining in range(parts, 0, -1):
        sizes.append(total // remaining)
        total -= sizes[-1]
    return sizes


def django_order(item: pytest.Item) -> int:
    """pytest-django's order, as Django's test runner orders: tests in a transaction rolled
    back first (0), then the transactional ones (1), then those without a database (2). It
    is kept: a transactional test empties every table after it, the rows that migrations
    wrote too (the "Rating officers" group), and tests without a database may find what the
    transactional ones left behind (a Celery app switched to the real broker)."""
    from django.test import TestCase, TransactionTestCase
    from pytest_django.plugin import validate_django_db

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return 0 if issubclass(cls, TestCase) else 1
    fixtures = getattr(item, "fixturenames", ())
    marker = item.get_closest_marker("django_db")
    transactional = "transactional_db" in fixtures or "live_server" in fixtures
    if marker is not None:
        transaction, reset_sequences, *_ = validate_django_db(marker)
        transactional = transactional or transaction or reset_sequences
    if transactional:
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


def laid_out(items: list[pytest.Item], parts: int) -> list[pytest.Item]:
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    known = measured()
    groups = []
    for name, tests in modules.items():
        if name in known:  # of the module's tests, those selected (-k, -m): their share
            seconds = known[name]["seconds"] * min(1.0, len(tests) / known[name]["tests"])
        else:
            seconds = sum(map(seconds_of, tests))
        groups.append((seconds, name, tests))
    groups.sort(key=lambda g: (-g[0], g[1]))  # costliest first; by name when equal
    room = part_sizes(len(items), parts)
    cost = [0.0] * parts
    chosen: list[list[tuple]] = [[] for _ in range(parts)]
    for seconds, name, tests in groups:
        fitting = [p for p in range(parts) if room[p] >= len(tests)]
        if fitting:
            p = min(fitting, key=lambda p: (cost[p], p))
            chosen[p].append((seconds, name, tests))
            room[p] -= len(tests)
            cost[p] += seconds
            continue
        # more tests than any part has room for (a large module of short tests): poured
        # into the parts with room left, cheapest first
        rest = list(tests)
        for p in sorted(range(parts), key=lambda p: (cost[p], p)):
            share, rest = rest[: room[p]], rest[room[p] :]
            if share:
                chosen[p].append((seconds * len(share) / len(tests), name, share))
                room[p] -= len(share)
                cost[p] += seconds * len(share) / len(tests)
    ordered: list[pytest.Item] = []
    for part in chosen:
        # pytest-django's order first; within it, the costliest modules first
        rank = {name: n for n, (_, name, _) in enumerate(sorted(part, key=lambda g: (-g[0], g[1])))}
        tests = [item for group in part for item in group[2]]
        order = {id(item): n for n, item in enumerate(tests)}
        tests.sort(
            key=lambda item: (
                django_order(item),
                rank[item.nodeid.split("::", 1)[0]],
                order[id(item)],
            )
        )
        ordered.extend(tests)
    return ordered


@pytest.hookimpl(trylast=True)  # after ``-m`` and ``-k`` deselected: the tests that run
def pytest_collection_modifyitems(config, items):
    worker = getattr(config, "workerinput", None)
    if worker is None:  # not an xdist process (xdist's workers see ``--dist`` as "no")
        return
    parts = int(worker.get("workercount", 1))
    if parts > 1 and len(items) > parts:
        ordered = laid_out(items, parts)
        assert len(ordered) == len(items) and set(map(id, ordered)) == set(map(id, items))
        items[:] = ordered


def durations_from_junit(path: str) -> dict[str, dict[str, float]]:
    """Seconds and tests per module (``tests/x/test_y.py``) of a JUnit report (pytest's
    ``--junitxml``; a test's time there is its set-up, call and tear-down)."""
    import xml.etree.ElementTree as ET

    modules: dict[str, dict[str, float]] = {}
    for case in ET.parse(path).iter("testcase"):
        dotted = [p for p in case.get("classname", "").split(".") if not p[:1].isupper()]
        module = modules.setdefault("/".join(dotted) + ".py", {"seconds": 0.0, "tests": 0})
        module["seconds"] += float(case.get("time") or 0)
        module["tests"] += 1
    return {
        name: {"seconds": round(m["seconds"], 1), "tests": m["tests"]}
        for name, m in sorted(modules.items())
    }


if __name__ == "__main__":  # python -m tests.scheduling report.xml
    lines = [
        f"{json.dumps(k)}: {json.dumps(v)}" for k, v in durations_from_junit(sys.argv[1]).items()
    ]
    DURATIONS.write_text("{\n" + ",\n".join(lines) + "\n}\n")
