"""``counting.result_counted``: the competition's consequences of a counted result in their
fixed order, then the registered subscribers in the registry's order (ratings, analyses),
registered when Django is ready and listed in docs/architecture.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ratings.models import RatingGame
from tests.builders import example_text
from tournaments.models import League, Result
from tournaments.services import counting
from tournaments.services.results import game_log_submit, result_confirm, result_void

ROOT = Path(__file__).resolve().parents[2]
LOG = "valid-league-2tplus.json"

#: the registry, in the order its subscribers run (docs/architecture.md lists the same)
EXPECTED = [
    ("ratings", "ratings.services.ratings.rating_game_counted"),
    ("analyses", "tournaments.services.analyses.analysis_for_counted"),
]


def test_the_registry_lists_its_subscribers_in_order():
    assert [(s.name, s.where) for s in counting.subscribers()] == EXPECTED
    orders = [s.order for s in counting.subscribers()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_a_process_that_only_sets_django_up_has_the_same_registry():
    """Registered at app-ready time (``tournaments/apps.py``), not by whichever import a
    process happens to make first."""
    code = (
        "import django; django.setup()\n"
        "from tournaments.services import counting\n"
        "print(','.join(s.name for s in counting.subscribers()))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ",".join(name for name, _ in EXPECTED)


def test_the_docs_list_the_subscribers_in_the_registry_order():
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## What a counted result sets off", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| `([a-z_]+)` \| `([\w.]+)` \|", section, re.M)
    registry = [(str(s.order), s.name, s.where) for s in counting.subscribers()]
    assert rows == registry


@pytest.fixture
def isolated_registry(monkeypatch):
    """The registry as it is, restored after the test (a test's subscriber never leaks)."""
    monkeypatch.setattr(counting, "_registry", dict(counting._registry))


def test_a_name_or_an_order_is_never_taken_twice(isolated_registry):
    def handler(fixture):
        return None

    with pytest.raises(ValueError, match="already called 'ratings'"):
        counting.subscribe("ratings", order=900)(handler)
    with pytest.raises(ValueError, match="order 100 is taken by 'ratings'"):
        counting.subscribe("other", order=100)(handler)
    ratings = counting.subscribers()[0]
    counting.subscribe("ratings", order=ratings.order)(ratings.handler)  # imported again
    assert [(s.name, s.where) for s in counting.subscribers()] == EXPECTED


def test_subscribers_run_after_the_competition_in_the_registry_order(table, isolated_registry):
    """A subscriber placed last sees what ran before it: the rated game recorded by the
    ratings subscriber; one placed first runs before ratings. The standings' revision is
    bumped after every subscriber (it locks the league's row until the commit: issue 31),
    so even the last one sees it unchanged."""
    seen = []

    def first(fixture):
        seen.append(("first", RatingGame.objects.filter(fixture=fixture).exists()))

    def last(fixture):
        revision = League.objects.get(pk=fixture.league_id).results_revision
        seen.append(("last", RatingGame.objects.filter(fixture=fixture).exists(), revision))

    counting.subscribe("test-first", order=1)(first)
    counting.subscribe("test-last", order=10_000)(last)
    pending = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    assert seen == []  # pending: nothing counts yet
    result_confirm(result=pending, by=table["carol"])
    assert seen == [("first", False), ("last", True, 0)]
    assert League.objects.get(pk=table["fixture"].league_id).results_revision == 1
    result_void(fixture=table["fixture"], by=table["organizer"], reason="replayed")
    assert seen[2:] == [("first", True), ("last", True, 1)]


def test_a_failing_subscriber_undoes_the_whole_change(table, isolated_registry):
    def broken(fixture):
        raise RuntimeError("subscriber failed")

    counting.subscribe("test-broken", order=10_000)(broken)
    pending = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    with pytest.raises(RuntimeError, match="subscriber failed"):
        result_confirm(result=pending, by=table["carol"])
    assert Result.objects.get().state == Result.State.PENDING
    assert League.objects.get(pk=table["league"].pk).results_revision == 0
    assert not RatingGame.objects.exists()
