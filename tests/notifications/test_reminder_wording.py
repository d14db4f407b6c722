"""Issue 34 point 14: reminder mails read as sentences, give the date with its time zone,
tell the scheduled time from the result deadline; a declined invitation is told to the
organizers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from notifications import services as notifications
from notifications.models import Notification
from tests.notifications.test_notifications import w  # noqa: F401  (the fixture)


def _body(kind: str, user: str) -> str:
    return Notification.objects.get(kind=kind, user__username=user).body


def test_a_reminder_is_a_sentence_with_the_time_zone_and_the_result_deadline(w):  # noqa: F811
    _users, _league, fixture, _entries = w
    now = timezone.now()
    fixture.scheduled_at = now + timedelta(hours=24)
    fixture.deadline = now + timedelta(days=4)
    fixture.save()
    notifications.deadline_sweep(now)
    body = _body("deadline_near", "erin")
    assert body[0].isupper() and body.startswith("Game G1")
    zone = timezone.localtime(fixture.scheduled_at).tzname()
    assert zone in body
    assert "is scheduled for" in body and "its result is due by" in body
    day = timezone.localtime(fixture.deadline).strftime("%-d")
    assert f" {day} " in body.split("due by")[1]
    assert timezone.localtime(fixture.scheduled_at).strftime("%Y-%m-%d") not in body  # no ISO
    assert any("Game G1" in m.body for m in mail.outbox)


def test_an_overdue_notice_names_the_missed_result_deadline(w):  # noqa: F811
    _users, _league, fixture, _entries = w
    now = timezone.now()
    fixture.scheduled_at = now - timedelta(days=3)
    fixture.deadline = now - timedelta(hours=1)
    fixture.save()
    notifications.deadline_sweep(now)
    body = _body("game_overdue", "org")
    assert body.startswith("The result of game G1") and "was due by" in body


def test_a_german_reminder_is_german_with_the_zone(w):  # noqa: F811
    from accounts.models import AccountSettings

    users, _league, fixture, _entries = w
    AccountSettings.objects.update_or_create(user=users["erin"], defaults={"language": "de"})
    now = timezone.now()
    fixture.scheduled_at = now + timedelta(hours=24)
    fixture.save()
    notifications.deadline_sweep(now)
    body = _body("deadline_near", "erin")
    assert body.startswith("Partie G1") and "angesetzt" in body
    assert timezone.localtime(fixture.scheduled_at).tzname() in body


@pytest.mark.django_db
def test_a_declined_invitation_is_told_to_the_organizers(django_capture_on_commit_callbacks):
    from tests.builders import make_league, make_user
    from tournaments.services.entries import entry_decline
    from tournaments.services.leagues import entry_add
    from tournaments.services.players import player_create

    org, co, ida = make_user("org2"), make_user("co2"), make_user("ida")
    league = make_league(org, "decline-league", status="registration")
    league.organizers.add(co)
    entry = entry_add(league=league, player=player_create(name="Ida", user=ida), by=org)
    with django_capture_on_commit_callbacks(execute=True):
        entry_decline(entry=entry, by=ida)
    told = Notification.objects.filter(kind="invitation_declined")
    assert sorted(n.user.username for n in told) == ["co2", "org2"]
    assert "Ida declined your invitation to Decline League" in told.first().body
