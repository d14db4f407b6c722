"""Bounds on the analysis queue (issue 22, point 6): only the log that counts is analysed
(a superseded log's queued analysis is skipped and says so), one message per row (the
catch-up sends again only a row whose message looks lost, and claims it first), and at
most ``ANALYSIS_QUEUED_PER_ORGANIZER`` analyses of one organizer's games in the queue."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from unittest import mock

import pytest
from celery import current_app
from django.utils import timezone

from games import analysis as worker
from games.models import GameAnalysis
from tests.analysis.conftest import LOG, corrected_log
from tests.builders import example_text, make_fixture, make_league, make_user
from tests.concurrently import run_concurrently
from tournaments.models import Entry, League
from tournaments.services import analyses
from tournaments.services.results import game_log_submit

Status = GameAnalysis.Status


@pytest.fixture
def published():
    """The task messages analysis_send publishes (Celery not in-process, publish recorded)."""
    sent: list[int] = []
    lock = threading.Lock()

    def record(name, args=(), **kwargs):
        with lock:
            sent.append(args[0])
        return True

    current_app.conf.task_always_eager = False
    try:
        with mock.patch.object(analyses, "task_send", side_effect=record):
            yield sent
    finally:
        current_app.conf.task_always_eager = True


def _text(variant: int) -> str:
    """The example game as a distinct text (another content hash: another stored log)."""
    return json.dumps(json.loads(example_text(LOG)), indent=variant)


def _games(table, count: int, owner=None):
    """``count`` more games of erin against carol, in the table's league or a new league of
    ``owner``, each with its own log submitted by erin (results count at once)."""
    league = table["league"]
    if owner is not None:
        league = make_league(owner, format="2T+")
        League.objects.filter(pk=league.pk).update(confirmation_required=False)
    entries = {
        e.player.name: e
        for e in Entry.objects.filter(league=table["league"]).select_related("player")
    }
    players = [entries["erin"].player, entries["carol"].player]
    fixtures = []
    for _ in range(count):
        fixtures.append(
            make_fixture(
                league, [(players[0], ["black", "yellow"]), (players[1], ["green", "red"])], "black"
            )
        )
    return fixtures


@pytest.mark.django_db
def test_a_superseded_log_is_skipped_and_never_analysed(
    table, analyses_on, fast_analyse, django_capture_on_commit_callbacks
):
    first = game_log_submit(fixture=table["fixture"], content=_text(3), by=table["erin"])
    old = GameAnalysis.objects.get(log_id=first.game_log_id)
    assert old.status == Status.QUEUED
    # an organizer corrects the log before any worker reached the first one
    second = game_log_submit(
        fixture=table["fixture"], content=corrected_log(), by=table["organizer"]
    )
    old.refresh_from_db()
    assert old.status == Status.SKIPPED and "stopped counting" in old.error
    new = GameAnalysis.objects.get(log_id=second.game_log_id)
    assert new.status == Status.QUEUED
    # the worker's message for the old row finds nothing to do
    outcome = worker.analysis_run(old.pk)
    assert outcome == {"analysis": old.pk, "status": "skipped", "stored": False}
    assert worker.analysis_run(new.pk)["stored"] is True
    # the first log counts again (the correction is itself corrected back): queued again
    game_log_submit(fixture=table["fixture"], content=_text(3), by=table["organizer"])
    old.refresh_from_db()
    assert old.status == Status.QUEUED and old.error == ""


@pytest.mark.django_db
def test_the_catch_up_queues_a_skipped_analysis_whose_log_counts(table, analyses_on, published):
    counted = game_log_submit(fixture=table["fixture"], content=_text(4), by=table["erin"])
    row = GameAnalysis.objects.get(log_id=counted.game_log_id)
    GameAnalysis.objects.filter(pk=row.pk).update(status=Status.SKIPPED, error="x")
    assert analyses.analyses_catch_up()["sent"] == 1
    row.refresh_from_db()
    assert (row.status, row.error) == (Status.QUEUED, "") and row.queued_at is not None
    assert published == [row.pk]


@pytest.mark.django_db
def test_a_void_skips_the_queued_analysis(table, analyses_on):
    from tournaments.services.results import result_void

    counted = game_log_submit(fixture=table["fixture"], content=_text(2), by=table["erin"])
    result_void(fixture=table["fixture"], by=table["organizer"], reason="wrong table")
    assert GameAnalysis.objects.get(log_id=counted.game_log_id).status == Status.SKIPPED


@pytest.mark.django_db(transaction=True)
def test_the_catch_up_sends_each_row_once_while_they_wait_behind_long_analyses(
    table, analyses_on, published
):
    for fixture, variant in zip(_games(table, 6), range(2, 8), strict=True):
        game_log_submit(fixture=fixture, content=_text(variant), by=table["erin"])
    rows = list(GameAnalysis.objects.order_by("pk").values_list("pk", flat=True))
    assert len(rows) == 6 and sorted(published) == rows  # one message each, on commit
    published.clear()
    long_ago = timezone.now() - timedelta(hours=2)
    GameAnalysis.objects.update(queued_at=long_ago, created_at=long_ago)
    # a worker is busy with the oldest: the others wait behind it, their messages in line
    GameAnalysis.objects.filter(pk=rows[0]).update(
        status=Status.RUNNING, started_at=timezone.now() - timedelta(minutes=4), claim="x"
    )
    for _ in range(3):
        assert analyses.analyses_catch_up()["sent"] == 0
    assert published == []
    # a row sent after the others has been started: the queue moved past them, so their
    # messages are lost; each is sent again once, however often the catch-up runs
    GameAnalysis.objects.filter(pk=rows[-1]).update(
        queued_at=timezone.now() - timedelta(minutes=30),
        status=Status.RUNNING,
        started_at=timezone.now() - timedelta(minutes=1),
    )
    outcomes = run_concurrently(*[analyses.analyses_catch_up for _ in range(3)])
    assert sum(o["sent"] for o in outcomes) == 4, outcomes
    assert sorted(published) == rows[1:-1]
    assert analyses.analyses_catch_up()["sent"] == 0
    assert sorted(published) == rows[1:-1]


@pytest.mark.django_db
def test_a_standing_queue_gets_one_probe_not_every_row(table, analyses_on, published):
    for fixture, variant in zip(_games(table, 4), range(2, 6), strict=True):
        game_log_submit(fixture=fixture, content=_text(variant), by=table["erin"])
    long_ago = timezone.now() - timedelta(hours=2)
    GameAnalysis.objects.update(queued_at=long_ago, created_at=long_ago)
    oldest = GameAnalysis.objects.order_by("pk").first().pk
    GameAnalysis.objects.filter(pk=oldest).update(queued_at=long_ago - timedelta(minutes=1))
    assert analyses.analyses_catch_up()["sent"] == 1
    assert published == [oldest]
    assert analyses.analyses_catch_up()["sent"] == 0  # the probe was sent a moment ago


@pytest.mark.django_db
def test_an_organizer_has_at_most_n_analyses_in_the_queue(
    table, analyses_on, published, django_capture_on_commit_callbacks
):
    analyses_on.ANALYSIS_QUEUED_PER_ORGANIZER = 2
    with django_capture_on_commit_callbacks(execute=True):
        for fixture, variant in zip(_games(table, 5), range(2, 7), strict=True):
            game_log_submit(fixture=fixture, content=_text(variant), by=table["erin"])
    mine = GameAnalysis.objects.order_by("pk")
    assert len(published) == 2 and mine.filter(queued_at__isnull=True).count() == 3
    # another organizer's game is not held up by them
    other = _games(table, 1, owner=make_user("other-org"))[0]
    with django_capture_on_commit_callbacks(execute=True):
        theirs = game_log_submit(fixture=other, content=_text(9), by=table["erin"])
    assert published[-1] == GameAnalysis.objects.get(log_id=theirs.game_log_id).pk
    # the catch-up sends nothing while the organizer's queue is full …
    assert analyses.analyses_catch_up()["sent"] == 0
    # … and the next one, oldest first, once one of theirs is done
    waiting = list(mine.filter(queued_at__isnull=True).values_list("pk", flat=True))
    first = mine.filter(queued_at__isnull=False).first()
    GameAnalysis.objects.filter(pk=first.pk).update(status=Status.DONE)
    assert analyses.analyses_catch_up()["sent"] == 1
    assert published[-1] == waiting[0]
    assert mine.filter(queued_at__isnull=True).count() == 2
