"""A burst of results in one league (docs/results.md, "A burst of results"): the standings
recomputes coalesce (one worker at a time per league, claimed with a conditional UPDATE; a
run finding the snapshot current does nothing), the final snapshot is at the league's last
revision and equals a recompute from scratch, and an upload's POST runs the same queries
however many games the league has counted."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from tests.builders import erin_against_carol, example_bytes, make_fixture
from tests.celery_worker import WorkerProcess, use_real_broker
from tournaments.models import Entry, League, StandingsSnapshot
from tournaments.services import standings
from tournaments.services.results import result_enter, result_void

BURST = 8


def _league_with_games(games: int):
    """erin against carol (the example log's game) and ``games`` more of the same pairing."""
    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    erin, carol = _entries(league)
    seats = [(erin, ["black", "yellow"]), (carol, ["green", "red"])]
    extra = [make_fixture(league, seats, "black") for _ in range(games)]
    return world, extra


def _entries(league):
    by_name = {
        e.player.name: e for e in Entry.objects.filter(league=league).select_related("player")
    }
    return [by_name["erin"], by_name["carol"]]


def _enter(world, fixture, i):
    erin, carol = _entries(world["league"])
    winner, loser = (erin, carol) if i % 3 else (carol, erin)
    result_enter(
        fixture=fixture,
        by=world["organizer"],
        winner=winner,
        counted_pawns={loser.pk: i % 4},
        reason=f"burst {i}",
    )


def _table(league):
    snapshot = StandingsSnapshot.objects.get(league=league)
    rows = snapshot.rows.order_by("position").values_list(
        "entry_id", "rank", "played", "wins", "losses", "points", "metrics", "separated_by"
    )
    return snapshot.results_revision, snapshot.games_played, list(rows)


def _rows_ever_written() -> int:
    """Standings rows ever created (each recompute writes one per entry)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence('tournaments_standingsrow', 'id')")
        (name,) = cursor.fetchone()
        cursor.execute(f"SELECT last_value FROM {name}")
        (value,) = cursor.fetchone()
        return value


def _from_scratch(league):
    StandingsSnapshot.objects.filter(league=league).delete()
    assert standings.standings_recompute(league.pk)["status"] == "recomputed"
    return _table(league)


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_a_burst_of_results_through_a_real_worker_is_at_most_two_recomputes():
    world, extra = _league_with_games(BURST)
    league = world["league"]
    with use_real_broker() as app:
        app.control.purge()
        # the burst arrives faster than the worker: its tasks wait in the queue
        for i, fixture in enumerate(extra):
            _enter(world, fixture, i)
        revision = League.objects.get(pk=league.pk).results_revision
        assert revision >= BURST
        before = _rows_ever_written()
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            from config.celery_app import ping

            ping.delay().get(timeout=60)  # one worker process: every queued task ran before
        finally:
            worker.stop()
    recomputes = (_rows_ever_written() - before) // 2  # two entries: two rows a recompute
    assert 1 <= recomputes <= 2, recomputes
    final = _table(league)
    assert final[0] == revision and final[1] == BURST
    assert _from_scratch(league) == final


@pytest.mark.django_db
def test_results_counted_during_a_recompute_are_taken_by_its_holder(monkeypatch):
    world, extra = _league_with_games(BURST)
    league = world["league"]
    real, calls = standings._recompute, []

    def recompute_while_results_arrive(league_id):
        calls.append(League.objects.get(pk=league_id).results_revision)
        outcome = real(league_id)
        if len(calls) == 1:
            for i, fixture in enumerate(extra):
                _enter(world, fixture, i)  # the burst lands after the run read its inputs
                # each result's own task finds the league claimed and leaves it
                blocked = standings.standings_recompute(league_id)
                assert blocked["status"] == "claimed by another worker"
        return outcome

    monkeypatch.setattr(standings, "_recompute", recompute_while_results_arrive)
    _enter(world, world["fixture"], 99)
    outcome = standings.standings_recompute(league.pk)
    revision = League.objects.get(pk=league.pk).results_revision
    assert len(calls) == 2 and calls[1] == revision  # the holder ran again, to the last one
    assert outcome["status"] == "recomputed" and outcome["revision"] == revision
    assert League.objects.get(pk=league.pk).standings_claimed_until is None
    assert standings.standings_recompute(league.pk)["status"] == "up to date"
    assert len(calls) == 2  # a snapshot already current: nothing done
    monkeypatch.setattr(standings, "_recompute", real)
    final = _table(league)
    assert final[1] == BURST + 1
    assert _from_scratch(league) == final


def _upload_queries(world, fixture) -> int:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(world["erin"])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/fixtures/{fixture.pk}/log/", example_bytes(), content_type="application/json"
        )
    assert response.status_code == 201, response.content
    return len(queries.captured_queries)


@pytest.mark.django_db
def test_an_upload_post_runs_the_same_queries_at_two_league_sizes():
    world, extra = _league_with_games(42)
    # the log is stored once (the first upload), then each upload reuses it
    _upload_queries(world, world["fixture"])
    result_void(fixture=world["fixture"], by=world["organizer"], reason="wrong game")
    small = _upload_queries(world, extra[0])  # nothing else counted
    result_void(fixture=extra[0], by=world["organizer"], reason="wrong game")
    for i, fixture in enumerate(extra[1:41]):
        _enter(world, fixture, i)
    large = _upload_queries(world, extra[41])  # the same log, 40 counted games later
    assert small == large, (small, large)


@pytest.mark.django_db(transaction=True)
def test_a_result_counts_while_a_recompute_of_its_league_runs(monkeypatch):
    """The recompute holds no lock on the league's row while it computes: an organizer's
    result (which raises the league's revision) does not wait for it, and the running
    recompute's holder then brings the table to that result."""
    import threading

    world, extra = _league_with_games(2)
    league = world["league"]
    _enter(world, extra[0], 0)  # its own recompute ran on commit (eager Celery)
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    computing, entered = threading.Event(), threading.Event()
    real = standings._computed_table

    def slow_compute(*args, **kwargs):
        if not computing.is_set():
            computing.set()
            entered.wait(timeout=20)  # the first run computes until the result is in
        return real(*args, **kwargs)

    monkeypatch.setattr(standings, "_computed_table", slow_compute)
    outcome = {}

    def run():
        try:
            outcome.update(standings.standings_recompute(league.pk))
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert computing.wait(timeout=20)
        done = threading.Thread(target=lambda: (_enter(world, extra[1], 1), connection.close()))
        done.start()
        done.join(timeout=10)
        assert not done.is_alive(), "the result waited for the recompute"
    finally:
        entered.set()
        worker.join(timeout=30)
    revision = League.objects.get(pk=league.pk).results_revision
    assert outcome["status"] == "recomputed" and outcome["revision"] == revision
    assert _table(league)[1] == 2


@pytest.mark.django_db
def test_a_league_at_revision_zero_without_a_snapshot_gets_one():
    world, _ = _league_with_games(1)
    league = world["league"]
    assert League.objects.get(pk=league.pk).results_revision == 0
    assert standings.standings_recompute(league.pk)["status"] == "recomputed"
    assert _table(league)[:2] == (0, 0)
    assert standings.standings_recompute(league.pk)["status"] == "up to date"


@pytest.mark.django_db
def test_a_task_finding_the_league_claimed_leaves_it_without_writing():
    """During a burst every result's task finds the league claimed: it reads the claim with
    the revision and leaves the league to its holder, without an UPDATE of the league's
    row (which would wait for every upload holding that row, only to be refused)."""
    import datetime as dt

    from django.utils import timezone

    world, _ = _league_with_games(1)
    league = world["league"]
    _enter(world, world["fixture"], 0)  # counted; its own recompute ran (eager Celery)
    League.objects.filter(pk=league.pk).update(
        results_revision=F("results_revision") + 1,
        standings_claimed_until=timezone.now() + dt.timedelta(seconds=30),
    )
    with CaptureQueriesContext(connection) as queries:
        outcome = standings.standings_recompute(league.pk)
    assert outcome["status"] == "claimed by another worker"
    assert [q["sql"] for q in queries.captured_queries if not q["sql"].startswith("SELECT")] == []
    # a lapsed claim (a killed worker's) is taken over and the table brought up to date
    League.objects.filter(pk=league.pk).update(
        standings_claimed_until=timezone.now() - dt.timedelta(seconds=1)
    )
    assert standings.standings_recompute(league.pk)["status"] == "recomputed"
    assert _table(league)[0] == League.objects.get(pk=league.pk).results_revision
    assert League.objects.get(pk=league.pk).standings_claimed_until is None


@pytest.mark.django_db
def test_a_result_counted_while_a_worker_holds_the_recompute_sends_no_task(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The revision bump reads the league's claim in the same statement: while a worker
    holds the recompute (it lets go only after this commit, then checks the revision
    again) no task is sent; without a holder, or with a claim that lapsed, one is
    (issue 31, h-upload5: each result of a burst sent a task that found the league
    claimed)."""
    import datetime as dt

    from django.utils import timezone

    world, extra = _league_with_games(3)
    league = world["league"]
    sent = []
    monkeypatch.setattr(standings, "standings_enqueue", lambda league_id: sent.append(league_id))
    with django_capture_on_commit_callbacks(execute=True):
        _enter(world, world["fixture"], 0)
    assert sent == [league.pk]  # no holder: the task is sent
    held = timezone.now() + dt.timedelta(seconds=standings.CLAIM_SECONDS)
    League.objects.filter(pk=league.pk).update(standings_claimed_until=held)
    with django_capture_on_commit_callbacks(execute=True):
        _enter(world, extra[0], 1)
    assert sent == [league.pk]  # held: the holder takes it
    lapsing = timezone.now() + dt.timedelta(seconds=standings.HELD_SECONDS - 1)
    League.objects.filter(pk=league.pk).update(standings_claimed_until=lapsing)
    with django_capture_on_commit_callbacks(execute=True):
        _enter(world, extra[1], 2)
    assert sent == [league.pk, league.pk]  # about to lapse (a killed holder's): sent
    assert League.objects.get(pk=league.pk).results_revision == 3


@pytest.mark.django_db
def test_the_holder_pauses_between_runs_under_a_burst(monkeypatch, settings):
    """A holder whose league moved during its run runs again no sooner than
    STANDINGS_RECOMPUTE_SPACING after its previous run started: the results of the pause
    are taken by that one run (issue 31, h-upload5)."""
    world, extra = _league_with_games(4)
    league = world["league"]
    settings.STANDINGS_RECOMPUTE_SPACING = 0.5
    real, calls, pauses = standings._recompute, [], []

    def results_arrive_during_the_first_run(league_id):
        calls.append(League.objects.get(pk=league_id).results_revision)
        outcome = real(league_id)
        if len(calls) == 1:
            _enter(world, extra[0], 0)
        return outcome

    def pause(seconds):
        pauses.append(seconds)
        if len(pauses) == 1:  # results that land during the pause
            _enter(world, extra[1], 1)
            _enter(world, extra[2], 2)

    monkeypatch.setattr(standings, "_recompute", results_arrive_during_the_first_run)
    monkeypatch.setattr(standings.time, "sleep", pause)
    _enter(world, world["fixture"], 9)
    outcome = standings.standings_recompute(league.pk)
    revision = League.objects.get(pk=league.pk).results_revision
    assert len(calls) == 2 and calls[1] == revision == 4  # one run took all three
    assert len(pauses) == 1 and 0 < pauses[0] <= 0.5
    assert outcome["status"] == "recomputed" and outcome["revision"] == revision
    monkeypatch.setattr(standings, "_recompute", real)
    assert _from_scratch(league) == _table(league)
