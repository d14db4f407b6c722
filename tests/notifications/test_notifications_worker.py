"""Notifications through the real Redis broker and a real Celery worker: sent on commit,
exactly once per recipient, also when the task fails midway and is retried."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import Notification
from notifications.tasks import notify_deadlines
from tests.builders import make_fixture, make_league, make_player, make_user
from tests.mail_backends import sent_messages
from tournaments.models import Entry, Fixture
from tournaments.services.results import result_dispute, result_report, result_resolve

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture
def mail_dir(tmp_path, monkeypatch):
    """Set before the worker starts: the worker process sends through RecordingBackend."""
    monkeypatch.setenv("EMAIL_BACKEND", "tests.mail_backends.RecordingBackend")
    monkeypatch.setenv("TEST_MAIL_DIR", str(tmp_path))
    return tmp_path


def wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def game():
    users = {r: make_user(r) for r in ("org", "co", "erin", "carol")}
    league = make_league(users["org"], "worker-league")
    league.organizers.add(users["co"])
    e = {
        n: Entry.objects.create(league=league, player=make_player(n, users[n]))
        for n in ("erin", "carol")
    }
    fixture = make_fixture(
        league, [(e["erin"], ["black", "yellow"]), (e["carol"], ["green", "red"])], "black"
    )
    return users, fixture, e


def test_each_event_reaches_exactly_the_right_people(mail_dir, celery_worker):
    users, fixture, e = game()
    pending = result_report(fixture=fixture, by=users["erin"], winner=e["erin"])
    wait_for(lambda: len(sent_messages(mail_dir)) == 1)
    result_dispute(result=pending, by=users["carol"], reason="wrong winner")
    wait_for(lambda: len(sent_messages(mail_dir)) == 3)
    time.sleep(1.0)  # anything extra would arrive now
    sent = sent_messages(mail_dir)
    assert [m["to"] for m in sent[:1]] == [["carol@example.org"]]
    assert sorted(m["to"][0] for m in sent[1:]) == ["co@example.org", "org@example.org"]
    assert all("List-Unsubscribe" in m["headers"] for m in sent)
    assert Notification.objects.filter(emailed_at__isnull=False).count() == 3

    # the decision: both players of the game, nobody else
    result_resolve(result=pending, by=users["co"], accept=False, note="replay it")
    wait_for(lambda: len(sent_messages(mail_dir)) == 5)
    # the beat task: the game (open again) is due tomorrow, its players are reminded once
    Fixture.objects.filter(pk=fixture.pk).update(scheduled_at=timezone.now() + timedelta(hours=20))
    notify_deadlines.delay().get(timeout=30)
    notify_deadlines.delay().get(timeout=30)
    wait_for(lambda: len(sent_messages(mail_dir)) == 7)
    time.sleep(1.0)
    sent = sent_messages(mail_dir)
    assert len(sent) == 7
    assert sorted(m["to"][0] for m in sent[3:5]) == ["carol@example.org", "erin@example.org"]
    assert sorted(m["to"][0] for m in sent[5:]) == ["carol@example.org", "erin@example.org"]
    assert Notification.objects.filter(kind="deadline_near").count() == 2


def test_a_retried_task_sends_nothing_twice(mail_dir, celery_worker):
    users, fixture, e = game()
    pending = result_report(fixture=fixture, by=users["erin"], winner=e["erin"])
    wait_for(lambda: len(sent_messages(mail_dir)) == 1)
    # the e-mail to the second organizer fails once: the task fails after the first
    # organizer's e-mail went out, and its retry must send only the missing one
    (mail_dir / "fail-co@example.org").touch()
    result_dispute(result=pending, by=users["carol"], reason="wrong winner")
    wait_for(lambda: len(sent_messages(mail_dir)) == 3, timeout=60)
    time.sleep(2.0)
    assert not (mail_dir / "fail-co@example.org").exists()  # the failure happened
    to = sorted(m["to"][0] for m in sent_messages(mail_dir))
    assert to == ["carol@example.org", "co@example.org", "org@example.org"]
    assert Notification.objects.filter(kind="dispute_opened").count() == 2
