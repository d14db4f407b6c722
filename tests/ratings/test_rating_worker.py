"""The ratings update through the real Redis broker and a real Celery worker process:
queued on commit of a counted result, idempotent when the task is sent again."""

from __future__ import annotations

import time

import pytest

from ratings.models import PlayerRating, RatingChange, RatingGame
from ratings.tasks import update_ratings
from tests.ratings.conftest import World

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def wait_for_applied(count, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if RatingGame.objects.filter(applied=True).count() >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"{count} rated games not applied within {timeout}s")


def figures():
    return sorted(
        RatingChange.objects.values_list("player__name", "sequence", "mu_after", "sigma_after")
    ), sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma", "games"))


def test_a_counted_result_is_rated_by_the_worker_and_a_repeated_task_changes_nothing(
    celery_worker,
):
    world = World()
    league = world.league()
    world.play(league, ["ann", "bob", "cid"])
    world.play(league, ["cid", "ann", "bob"])
    wait_for_applied(2)
    before = figures()
    assert len(before[0]) == 6 and {r[3] for r in before[1]} == {2}
    # the same task again, twice at once (a retry, a duplicate delivery)
    first, second = update_ratings.delay(), update_ratings.delay()
    assert first.get(timeout=30)["applied"] == 0
    assert second.get(timeout=30)["applied"] == 0
    assert figures() == before
