"""Storing analyses (games/analysis.py) and asking for them where a result counts
(tournaments/services/analyses.py): one row per key, one store per row, the counted log's
analysis queued on commit, a corrected log analysed again."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import analysis as service
from games.models import GameAnalysis, GameLog
from tests.analysis.conftest import LOG, corrected_log
from tests.builders import example_text
from tournaments.services import analyses, broker
from tournaments.services.results import game_log_submit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(request, monkeypatch):
    """The hand-made analysis everywhere but in the tests marked ``real_engine``."""
    if "real_engine" not in request.keywords:
        request.getfixturevalue("fast_analyse")


def submit(table, content=None, user=None):
    return game_log_submit(
        fixture=table["fixture"], content=content or example_text(LOG), by=user or table["erin"]
    )


def test_analyses_are_off_by_default_in_tests(table):
    submit(table)
    assert not GameAnalysis.objects.exists()


def test_a_counted_log_gets_a_queued_analysis_that_no_request_runs(
    table, analyses_on, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        result = submit(table)
    row = GameAnalysis.objects.get()
    assert row.log_id == result.game_log_id
    assert (row.sha256, row.format, row.rollouts, row.seed) == (
        result.game_log.sha256,
        "maedn-analysis/5",
        0,
        0,
    )
    assert row.status == "queued"  # eager Celery (the embedded default): not in the request


def test_a_corrected_log_is_analysed_again_and_the_old_analysis_stays(table, analyses_on):
    first = submit(table)
    second = submit(table, corrected_log(), user=table["organizer"])  # an organizer corrects
    assert first.game_log_id != second.game_log_id
    rows = dict(GameAnalysis.objects.values_list("log_id", "status"))
    assert set(rows) == {first.game_log_id, second.game_log_id}


def test_a_request_twice_finds_one_row(table):
    log = submit(table).game_log
    a, made_a = service.analysis_request(log)
    b, made_b = service.analysis_request(log)
    assert (made_a, made_b) == (True, False) and a.pk == b.pk


@pytest.mark.real_engine
def test_run_stores_once_and_a_second_run_leaves_it(table):
    log = submit(table).game_log
    row, _ = service.analysis_request(log)
    first = service.analysis_run(row.pk)
    assert first["stored"] and first["status"] == "done"
    row.refresh_from_db()
    assert row.status == "done" and row.data["format"] == row.format
    assert row.data["plies"] == 1 and row.data["model"]  # the shipped model, one ply
    luck = row.data["summary"]["erin"]["luck"]
    total = luck["start"] + luck["luck"] + luck["own_skill"] + luck["others_skill"]
    assert abs(total - luck["end"]) < 1e-9
    # the log renames its colours (rot, schwarz, gelb, grün): seats are by board position
    assert row.seats == {"0": "carol", "1": "erin", "2": "erin", "3": "carol"}
    finished = row.finished_at
    with mock.patch.object(service, "analyse") as analyse:
        again = service.analysis_run(row.pk)
    analyse.assert_not_called()
    assert again == {"analysis": row.pk, "status": "done", "stored": False}
    row.refresh_from_db()
    assert row.finished_at == finished


def test_only_one_of_two_workers_claims_a_row(table):
    log = submit(table).game_log
    row, _ = service.analysis_request(log)
    assert service._claim(row.pk, retry_failed=False) is not None
    assert service._claim(row.pk, retry_failed=False) is None


def test_a_worker_that_lost_its_claim_does_not_store(table):
    log = submit(table).game_log
    row, _ = service.analysis_request(log)
    real = service.analyse  # the hand-made one

    def stolen(*args, **kwargs):  # meanwhile the row was claimed again (a stale claim)
        GameAnalysis.objects.filter(pk=row.pk).update(claim="someone-else")
        return real(*args, **kwargs)

    with mock.patch.object(service, "analyse", side_effect=stolen):
        outcome = service.analysis_run(row.pk)
    assert outcome["stored"] is False
    assert GameAnalysis.objects.get(pk=row.pk).data is None


def test_a_running_row_whose_worker_vanished_is_claimed_again(table):
    log = submit(table).game_log
    row, _ = service.analysis_request(log)
    long_ago = timezone.now() - service.STALE_AFTER - timedelta(minutes=1)
    GameAnalysis.objects.filter(pk=row.pk).update(status="running", started_at=long_ago)
    assert service.analysis_run(row.pk)["stored"] is True
    recent = GameAnalysis.objects.create(
        log=log,
        sha256=log.sha256,
        format=row.format,
        rollouts=9,
        status="running",
        started_at=timezone.now(),
    )
    assert service.analysis_run(recent.pk) == {
        "analysis": recent.pk,
        "status": "running",
        "stored": False,
    }


def test_a_failing_analysis_is_recorded_with_its_error(table):
    log = submit(table).game_log
    row, _ = service.analysis_request(log)
    with mock.patch.object(service, "analyse", side_effect=ValueError("no such move")):
        outcome = service.analysis_run(row.pk)
    row.refresh_from_db()
    assert outcome["status"] == row.status == "failed"
    assert "no such move" in row.error
    assert service.analysis_run(row.pk)["stored"] is False  # not retried by itself
    assert service.analysis_run(row.pk, retry_failed=True)["stored"] is True


def test_the_page_shows_the_done_analysis_of_the_current_format(table):
    log = submit(table).game_log
    old = GameAnalysis.objects.create(
        log=log, sha256=log.sha256, format="maedn-analysis/1", rollouts=200, status="done", data={}
    )
    assert service.analysis_for_log(log.pk) is None  # an old format's analysis is not shown
    row, _ = service.analysis_request(log)
    assert service.analysis_for_log(log.pk).pk == row.pk  # pending
    service.analysis_run(row.pk)
    assert service.analysis_for_log(log.pk).pk == row.pk != old.pk


def test_catch_up_analyses_again_the_logs_with_only_an_old_format(table, analyses_on):
    log = submit(table).game_log
    GameAnalysis.objects.all().delete()
    GameAnalysis.objects.create(
        log=log, sha256=log.sha256, format="maedn-analysis/1", rollouts=200, status="done", data={}
    )
    with mock.patch.object(analyses, "analysis_send", return_value=True):
        assert analyses.analyses_catch_up()["created"] == 1
    assert GameAnalysis.objects.filter(format="maedn-analysis/5", status="queued").count() == 1


def test_catch_up_creates_missing_rows_and_sends_lost_ones(table, analyses_on):
    from celery import current_app

    submit(table)  # ANALYSIS_ENABLED on: a queued row
    GameAnalysis.objects.all().delete()
    sent = []

    def publish(name, args=(), **kwargs):
        sent.append(args[0])
        return True

    current_app.conf.task_always_eager = False
    try:
        with mock.patch.object(analyses, "task_send", side_effect=publish):
            outcome = analyses.analyses_catch_up()
            assert outcome["created"] == 1 and sent == [GameAnalysis.objects.get().pk]
            sent.clear()
            assert analyses.analyses_catch_up()["created"] == 0
            assert sent == []  # sent a moment ago: its message is not presumed lost yet
            GameAnalysis.objects.update(queued_at=timezone.now() - timedelta(hours=1))
            analyses.analyses_catch_up()  # nothing ran since: the queue stands still
            assert sent == [GameAnalysis.objects.get().pk]
    finally:
        current_app.conf.task_always_eager = True


def test_no_send_while_the_broker_was_down_a_moment_ago(table, settings):
    from celery import current_app

    log = GameLog.objects.get(pk=submit(table).game_log_id)
    row, _ = service.analysis_request(log)
    current_app.conf.task_always_eager = False
    try:
        broker.publish_failed()
        with mock.patch("celery.canvas.Signature.apply_async") as publish:
            assert analyses.analysis_send(row.pk) is False
        publish.assert_not_called()
        broker.publish_succeeded()
        with mock.patch("celery.canvas.Signature.apply_async") as publish:
            assert analyses.analysis_send(row.pk) is True
        publish.assert_called_once()
    finally:
        current_app.conf.task_always_eager = True
        broker.publish_succeeded()


def test_analyse_games_command_computes_counted_logs(table, capsys):
    from django.core.management import call_command

    submit(table)
    call_command("analyse_games")
    assert GameAnalysis.objects.get().status == "done"
    out = capsys.readouterr().out
    assert "1 stored, 0 failed" in out
    call_command("analyse_games")
    assert "0 stored" in capsys.readouterr().out  # idempotent


def test_the_embedded_beat_computes_queued_analyses_where_no_worker_runs(
    table, analyses_on, settings, django_capture_on_commit_callbacks
):
    """Issue 34 point 16: under ``make run`` (eager Celery, the embedded beat) the queued
    analyses were never computed and every game page said "queued" for ever."""
    with django_capture_on_commit_callbacks(execute=True):
        submit(table)
    assert GameAnalysis.objects.get().status == "queued"
    settings.EMBEDDED_BEAT = False
    assert "analysed" not in analyses.analyses_catch_up()  # a worker's deployment: sent
    assert GameAnalysis.objects.get().status == "queued"
    settings.EMBEDDED_BEAT = True
    assert analyses.analyses_catch_up()["analysed"] == 1
    assert GameAnalysis.objects.get().status == "done"
