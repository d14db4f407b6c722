"""Reminders in the embedded default: without beat, ``EMBEDDED_BEAT`` runs the periodic
tasks of ``CELERY_BEAT_SCHEDULE`` in the serving process, so an overdue game is notified
under ``make run`` too; with a broker it stays off (beat is the one scheduler)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from config import embedded_beat
from config.embedded_beat import EmbeddedBeat
from notifications.models import Notification
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry


def test_each_entry_runs_at_start_then_every_interval():
    ran: list[str] = []
    beat = EmbeddedBeat(
        {"a": {"task": "t.a", "schedule": 10}, "b": {"task": "t.b", "schedule": 60}},
        ran.append,
        clock=lambda: 0.0,
    )
    assert beat.run_pending(0) == ["a", "b"]
    assert beat.run_pending(5) == []
    assert beat.run_pending(10) == ["a"]
    assert beat.run_pending(61) == ["a", "b"]
    assert ran == ["t.a", "t.b", "t.a", "t.a", "t.b"]
    assert beat.seconds_to_next(61) == 10


def test_a_failing_task_is_logged_and_tried_again(caplog):
    calls = []

    def boom(task):
        calls.append(task)
        raise RuntimeError("database away")

    beat = EmbeddedBeat({"x": {"task": "t.x", "schedule": 1}}, boom)
    assert beat.run_pending(0) == ["x"] and beat.run_pending(1) == ["x"]
    assert len(calls) == 2 and "t.x" in caplog.text


@pytest.mark.django_db
def test_the_beat_schedule_notifies_an_overdue_game_without_beat():
    org, erin, carol = make_user("org"), make_user("erin"), make_user("carol")
    league = make_league(org, "beatless")
    e1 = Entry.objects.create(league=league, player=make_player("Erin", erin))
    e2 = Entry.objects.create(league=league, player=make_player("Carol", carol))
    fixture = make_fixture(league, [(e1, ["black", "yellow"]), (e2, ["green", "red"])], "black")
    fixture.scheduled_at = timezone.now() - timedelta(days=2)
    fixture.save()
    schedule = {"notify-deadlines": settings.CELERY_BEAT_SCHEDULE["notify-deadlines"]}
    EmbeddedBeat(schedule, embedded_beat._run_celery_task).run_pending()
    told = set(
        Notification.objects.filter(kind="game_overdue").values_list("user__username", flat=True)
    )
    assert {"erin", "carol", "org"} <= told


def test_it_stays_off_unless_asked_and_when_a_broker_runs_beat(settings, monkeypatch):
    monkeypatch.setattr(embedded_beat, "_started", None)
    settings.EMBEDDED_BEAT = False
    assert embedded_beat.start_embedded_beat() is None
    settings.EMBEDDED_BEAT = True
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert embedded_beat.start_embedded_beat() is None
