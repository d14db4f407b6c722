"""A burst of rated results (docs/ratings.md, "A burst of results"): while a worker holds
the ratings update (``RatingClaim``), a counted result sends no ratings task, and the
holder applies every game before and after letting go; a lapsing or lapsed claim is not
trusted; the final ratings equal a recompute from scratch."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from ratings.models import PlayerRating, RatingChange, RatingClaim, RatingGame
from ratings.services import ratings
from tests.ratings.conftest import World

BURST = 6
ORDERS = (["ann", "bob", "cid"], ["cid", "ann", "bob"], ["bob", "cid", "ann"])


def figures():
    return sorted(
        RatingChange.objects.values_list("player__name", "sequence", "mu_after", "sigma_after")
    ), sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma", "games"))


def sends(callbacks) -> int:
    """The ratings tasks a transaction's commit would send."""
    return sum(1 for callback in callbacks if callback is ratings.ratings_enqueue)


def assert_equal_to_a_recompute():
    final = figures()
    ratings.ratings_recompute()
    assert figures() == final


@pytest.mark.django_db
def test_a_burst_while_the_update_is_held_sends_no_task_and_the_holder_applies_it(
    monkeypatch, django_capture_on_commit_callbacks
):
    world = World()
    league = world.league()
    fixtures = [world.game(league, ORDERS[i % 3]) for i in range(BURST)]
    with django_capture_on_commit_callbacks() as first:
        world.play(league, ORDERS[0])
    assert sends(first) == 1  # nobody holds the update: the result sends its task
    real, runs, burst = ratings.ratings_update, [], []

    def update_while_results_arrive():
        runs.append(RatingGame.objects.filter(applied=False).count())
        outcome = real()
        if len(runs) == 1:
            with django_capture_on_commit_callbacks() as callbacks:
                for i, fixture in enumerate(fixtures):
                    world.enter(fixture, ORDERS[i % 3])  # lands after the run read its games
                    blocked = ratings.ratings_update_coalesced()  # that result's own task
                    assert blocked["status"] == "claimed by another worker"
            burst.extend(callbacks)
        return outcome

    monkeypatch.setattr(ratings, "ratings_update", update_while_results_arrive)
    outcome = ratings.ratings_update_coalesced()
    assert sends(burst) == 0  # BURST results, no task
    assert runs == [1, BURST]  # the holder ran again and took the whole burst
    assert outcome["applied"] == BURST + 1
    assert not RatingGame.objects.filter(applied=False).exists()
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until is None
    assert ratings.ratings_update_coalesced() == {"status": "up to date", "applied": 0}
    assert len(runs) == 2  # nothing pending: nothing run
    monkeypatch.setattr(ratings, "ratings_update", real)
    assert PlayerRating.objects.get(player__name="ann").games == BURST + 1
    assert_equal_to_a_recompute()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "left, sent", [(60, 0), (3, 1), (-1, 1), (None, 1)], ids=["held", "lapsing", "lapsed", "free"]
)
def test_only_a_claim_held_for_a_while_yet_saves_the_task(
    left, sent, django_capture_on_commit_callbacks
):
    until = None if left is None else timezone.now() + dt.timedelta(seconds=left)
    RatingClaim.objects.update_or_create(pk=ratings.CLAIM_ID, defaults={"claimed_until": until})
    world = World()
    with django_capture_on_commit_callbacks() as callbacks:
        world.play(world.league(), ORDERS[0])
    assert sends(callbacks) == sent


@pytest.mark.django_db
def test_a_lapsed_claim_is_taken_and_the_games_applied():
    world = World()
    league = world.league()
    for order in ORDERS:
        world.play(league, order)  # (not applied: the tasks of the db fixture never run)
    lapsed = timezone.now() - dt.timedelta(seconds=1)
    RatingClaim.objects.update_or_create(pk=ratings.CLAIM_ID, defaults={"claimed_until": lapsed})
    outcome = ratings.ratings_update_coalesced()
    assert outcome["applied"] == 3 and outcome["status"] == "updated"
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until is None
    RatingClaim.objects.filter(pk=ratings.CLAIM_ID).delete()  # a flushed database: no row
    world.play(league, ORDERS[1])
    assert ratings.ratings_update_coalesced()["applied"] == 1
    assert_equal_to_a_recompute()


@pytest.mark.django_db(transaction=True)
def test_the_holder_lets_go_only_after_a_result_that_saw_its_claim_commits(monkeypatch):
    """The race: a result reads the claim (held: it sends nothing) and commits only after
    the holder's last check found nothing pending. The holder's letting go waits for that
    commit, and its check after letting go applies the game."""
    world = World()
    league = world.league()
    first = world.play(league, ORDERS[0])  # applied on commit (eager Celery)
    late = world.game(league, ORDERS[1])
    real, runs = ratings.ratings_update, []
    counted, commit = threading.Event(), threading.Event()
    sent: list = []
    monkeypatch.setattr(ratings, "task_send", lambda name, *a, **k: sent.append(name))

    def result_in_a_slow_transaction():
        try:
            with transaction.atomic():
                world.enter(late, ORDERS[1])  # reads the claim: held
                counted.set()
                commit.wait(timeout=20)
        finally:
            connection.close()

    def first_run_waits_for_the_result():
        runs.append(1)
        if len(runs) == 1:
            threading.Thread(target=result_in_a_slow_transaction).start()
            assert counted.wait(timeout=20)
        return real()

    monkeypatch.setattr(ratings, "ratings_update", first_run_waits_for_the_result)
    RatingGame.objects.filter(fixture=first).update(applied=False)  # work for a holder
    outcome: dict = {}

    def holder():
        try:
            outcome.update(ratings.ratings_update_coalesced())
        finally:
            connection.close()

    worker = threading.Thread(target=holder)
    worker.start()
    worker.join(timeout=2)
    assert worker.is_alive(), "the holder let go while the result was uncommitted"
    assert len(runs) == 1
    commit.set()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert sent == []  # the result saw the claim
    assert len(runs) == 2  # after letting go: pending again, claimed again, applied
    assert not RatingGame.objects.filter(applied=False).exists()
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until is None
    monkeypatch.setattr(ratings, "ratings_update", real)
    assert_equal_to_a_recompute()


@pytest.mark.django_db
def test_the_holder_keeps_its_claim_through_the_pause_and_takes_its_results(
    monkeypatch, settings, django_capture_on_commit_callbacks
):
    """``RATINGS_UPDATE_SPACING``: after a run the holder pauses before letting go; a result
    of the pause sends no task, and the holder's next run (its claim renewed) takes it."""
    settings.RATINGS_UPDATE_SPACING = 30.0  # the pause is the monkeypatched sleep below
    world = World()
    league = world.league()
    world.play(league, ORDERS[0])
    late = world.game(league, ORDERS[1])
    pauses, claims, during = [], [], []

    def a_result_lands(seconds):
        pauses.append(seconds)
        claims.append(RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until)
        if len(pauses) == 1:
            with django_capture_on_commit_callbacks() as callbacks:
                world.enter(late, ORDERS[1])
            during.extend(callbacks)

    monkeypatch.setattr(ratings.time, "sleep", a_result_lands)
    outcome = ratings.ratings_update_coalesced()
    assert sends(during) == 0
    assert len(pauses) == 2 and 0 < pauses[0] <= 30  # after each of the two runs
    assert claims[1] > claims[0]  # renewed before the second run
    assert outcome["applied"] == 2
    assert not RatingGame.objects.filter(applied=False).exists()
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until is None
    assert_equal_to_a_recompute()


@pytest.mark.django_db
def test_a_game_no_run_can_take_does_not_keep_the_task_forever(monkeypatch):
    world = World()
    world.play(world.league(), ORDERS[0])  # pending (the db fixture's tasks never run)
    runs = []
    monkeypatch.setattr(ratings, "ratings_update", lambda: runs.append(1) or {"applied": 0})
    monkeypatch.setattr(ratings.time, "sleep", lambda seconds: None)
    assert ratings.ratings_update_coalesced()["applied"] == 0
    assert len(runs) == ratings.IDLE_CLAIMS
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until is None


@pytest.mark.django_db
def test_a_refused_claim_creates_no_row_and_a_missing_row_is_created_claimed():
    """A claim refused (held by another worker) costs its UPDATE and one ``INSERT … ON
    CONFLICT DO NOTHING``: no failing INSERT, no savepoint, the holder's row untouched; a
    missing row (a flushed database) is created, claimed."""
    from django.test.utils import CaptureQueriesContext

    held = timezone.now() + dt.timedelta(seconds=30)
    RatingClaim.objects.update_or_create(pk=ratings.CLAIM_ID, defaults={"claimed_until": held})
    with CaptureQueriesContext(connection) as queries:
        assert ratings._claim() is None
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert statements == ["UPDATE", "INSERT"]
    assert "ON CONFLICT" in queries.captured_queries[1]["sql"]
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until == held
    RatingClaim.objects.all().delete()
    until = ratings._claim()
    assert until is not None
    assert RatingClaim.objects.get(pk=ratings.CLAIM_ID).claimed_until == until
    assert ratings._claim() is None  # held now
