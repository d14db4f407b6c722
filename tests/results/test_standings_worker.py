"""Standings through the real Redis broker and a real Celery worker process."""

import threading
import time

import pytest
from django.db import connection, transaction

from tests.builders import example_text
from tests.celery_worker import WorkerProcess, use_real_broker
from tournaments.models import League, StandingsRow, StandingsSnapshot
from tournaments.services.results import game_log_submit
from tournaments.tasks import recompute_standings, standings_catch_up

LOG = "valid-league-2tplus.json"
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def wait_for_snapshot(league, revision, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snapshot = StandingsSnapshot.objects.filter(league=league).first()
        if snapshot and snapshot.results_revision >= revision:
            return snapshot
        time.sleep(0.1)
    raise AssertionError(f"no snapshot at revision {revision} within {timeout}s")


def test_upload_to_standings_through_a_real_worker(table, celery_worker):
    League.objects.filter(pk=table["league"].pk).update(confirmation_required=False)
    game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    snapshot = wait_for_snapshot(table["league"], 1)
    rows = {r.entry.player.name: r for r in snapshot.rows.select_related("entry__player")}
    assert (rows["carol"].rank, rows["carol"].wins, rows["carol"].losses) == (1, 1, 0)
    assert (rows["erin"].rank, rows["erin"].wins, rows["erin"].losses) == (2, 0, 1)
    assert rows["carol"].metrics["counted_pawns_difference"] > 0
    assert snapshot.games_played == 1
    assert snapshot.provisional is True  # the league's DRR has not been generated yet


def test_recompute_is_idempotent(table, celery_worker):
    League.objects.filter(pk=table["league"].pk).update(confirmation_required=False)
    game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    first = wait_for_snapshot(table["league"], 1)
    before = list(first.rows.values_list("entry_id", "rank", "metrics"))
    again = recompute_standings.delay(table["league"].pk).get(timeout=30)
    assert again["status"] == "up to date"
    after = list(
        StandingsSnapshot.objects.get(pk=first.pk).rows.values_list("entry_id", "rank", "metrics")
    )
    assert before == after


def test_a_worker_killed_mid_run_leaves_the_old_snapshot_and_the_next_run_fixes_it(table):
    league = table["league"]
    League.objects.filter(pk=league.pk).update(confirmation_required=False)
    with use_real_broker():
        # Hold the league's row lock in another connection: the worker's run blocks
        # inside its transaction, and is killed there.
        locked, release = threading.Event(), threading.Event()

        def hold_lock():
            with transaction.atomic():
                League.objects.select_for_update().get(pk=league.pk)
                locked.set()
                release.wait(60)
            connection.close()

        holder = threading.Thread(target=hold_lock)
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            game_log_submit(
                fixture=table["fixture"], content=example_text(LOG), by=table["erin"]
            )  # revision 1; the task is enqueued on commit
            # give that task time to finish, then block the next one
            wait_for_snapshot(league, 1)
            holder.start()
            assert locked.wait(10)
            from tournaments.services.results import result_void

            void = threading.Thread(
                target=lambda: (
                    result_void(fixture=table["fixture"], by=table["organizer"], reason="replay"),
                    connection.close(),
                )
            )
            void.start()  # waits for the lock too (it bumps the revision)
            time.sleep(1.0)
            recompute_standings.delay(league.pk)
            time.sleep(2.0)  # the worker is now blocked inside the recompute
            worker.kill()
        finally:
            release.set()
            worker.stop()  # first: a worker left running would take later tests' tasks
            if holder.is_alive():
                holder.join(30)
        void.join(30)
        snapshot = StandingsSnapshot.objects.get(league=league)
        assert snapshot.results_revision == 1  # the killed run changed nothing
        assert StandingsRow.objects.filter(snapshot=snapshot, wins=1).count() == 1

        # The killed run's message is unacknowledged (Redis redelivers it only after the
        # visibility timeout) and we drop the queued one too: the periodic catch-up repairs.
        from config.celery_app import app

        app.control.purge()
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            stale = standings_catch_up.delay().get(timeout=30)
            # a message of the killed or blocked run may come back first under load (the
            # broker restores unacknowledged messages); then the catch-up finds it current
            assert league.pk in stale or (
                StandingsSnapshot.objects.get(league=league).results_revision == 2
            )
            snapshot = wait_for_snapshot(league, 2)
        finally:
            worker.stop()
    assert not StandingsRow.objects.filter(snapshot=snapshot, wins=1).exists()


def test_submissions_survive_a_broker_outage_and_catch_up_repairs(table, settings):
    league = table["league"]
    League.objects.filter(pk=league.pk).update(confirmation_required=False)
    from config.celery_app import app

    with use_real_broker():
        app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
        app.conf.broker_connection_max_retries = 1
        from tests.celery_worker import _reset_app_connections

        _reset_app_connections()
        result = game_log_submit(
            fixture=table["fixture"], content=example_text(LOG), by=table["erin"]
        )
        assert result.state == "confirmed"  # stored although the broker is down
        assert not StandingsSnapshot.objects.filter(league=league).exists()
    with use_real_broker():
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            assert standings_catch_up.delay().get(timeout=30) == [league.pk]
            snapshot = wait_for_snapshot(league, 1)
        finally:
            worker.stop()
    assert snapshot.rows.filter(wins=1).count() == 1
