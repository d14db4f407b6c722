"""Notifications: each event tells exactly the right people once (inbox and e-mail), the
switches and the one-click unsubscribe work, and running an event again sends nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from notifications import services as notifications
from notifications.models import Notification
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry
from tournaments.services.leagues import entry_add
from tournaments.services.results import (
    forfeit_record,
    result_dispute,
    result_report,
    result_resolve,
    result_void,
)
from tournaments.services.schedule import cycle_create


@pytest.fixture
def w(db):
    users = {r: make_user(r) for r in ("org", "co", "erin", "carol", "dave", "stranger")}
    league = make_league(users["org"], "note-league")
    league.organizers.add(users["co"])
    entries = {
        n: Entry.objects.create(league=league, player=make_player(n, users[n]))
        for n in ("erin", "carol", "dave")
    }
    fixture = make_fixture(
        league,
        [(entries["erin"], ["black", "yellow"]), (entries["carol"], ["green", "red"])],
        "black",
        label="G1",
    )
    return users, league, fixture, entries


def told(kind: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for n in Notification.objects.filter(kind=kind).select_related("user"):
        out[n.user.username] = out.get(n.user.username, 0) + 1
    return out


def mailed_to() -> list[str]:
    return sorted(address for m in mail.outbox for address in m.to)


def test_a_result_awaiting_confirmation_tells_the_opponent_only(
    w, django_capture_on_commit_callbacks
):
    users, _, fixture, entries = w
    with django_capture_on_commit_callbacks(execute=True):
        result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    assert told("result_awaiting") == {"carol": 1}
    assert mailed_to() == ["carol@example.org"]
    assert reverse("tournaments:game", args=[fixture.pk]) in mail.outbox[0].body


def test_a_dispute_tells_the_organizers(w, django_capture_on_commit_callbacks):
    users, _, fixture, entries = w
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_dispute(result=pending, by=users["carol"], reason="I won")
    assert told("dispute_opened") == {"org": 1, "co": 1}
    assert mailed_to() == ["co@example.org", "org@example.org"]
    assert "I won" in mail.outbox[0].body


@pytest.mark.parametrize("decision", ["resolve", "void", "forfeit"])
def test_a_decision_tells_the_players_of_that_game(w, decision, django_capture_on_commit_callbacks):
    users, _, fixture, entries = w
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    with django_capture_on_commit_callbacks(execute=True):
        if decision == "resolve":
            result_resolve(result=pending, by=users["co"], accept=True, note="checked")
        elif decision == "void":
            result_void(fixture=fixture, by=users["org"], reason="wrong board")
        else:
            forfeit_record(fixture=fixture, by=users["org"], loser=entries["carol"], reason="late")
    assert told("decision_made") == {"erin": 1, "carol": 1}
    assert mailed_to() == ["carol@example.org", "erin@example.org"]


def test_seeding_a_drr_tells_the_entrants(db, django_capture_on_commit_callbacks):
    from tournaments.services.leagues import league_create
    from tournaments.services.players import player_create

    org = make_user("seeder")
    league = league_create(owner=org, name="Seeded", format="2T")
    from tournaments.services.entries import entry_accept

    for name in ("ann", "ben", "cid"):
        user = make_user(name)
        entry = entry_add(league=league, player=player_create(name=name, user=user), by=org)
        entry_accept(entry=entry, by=user)  # an account holder takes part once they accept
    entry_add(league=league, player=player_create(name="no-account", shared=True), by=org)
    with django_capture_on_commit_callbacks(execute=True):
        cycle_create(league=league, by=org, seed=4)
    assert told("schedule_changed") == {"ann": 1, "ben": 1, "cid": 1}
    assert len(mail.outbox) == 3


def test_deadlines_and_overdue_games_are_told_once(w):
    _users, league, fixture, entries = w
    now = timezone.now()
    fixture.scheduled_at = now + timedelta(hours=24)
    fixture.save()
    seats = [(entries["erin"], ["black", "yellow"]), (entries["dave"], ["green", "red"])]
    later = make_fixture(league, seats, "black", scheduled_at=now + timedelta(hours=72))
    late = make_fixture(league, seats, "black", scheduled_at=now - timedelta(hours=1))
    notifications.deadline_sweep(now)
    notifications.deadline_sweep(now + timedelta(minutes=15))  # the next beat run
    assert told("deadline_near") == {"erin": 1, "carol": 1}
    assert told("game_overdue") == {"erin": 1, "dave": 1, "org": 1, "co": 1}
    assert not Notification.objects.filter(key__contains=f":{later.pk}:").exists()
    assert Notification.objects.filter(key__startswith=f"game_overdue:{late.pk}:").count() == 4


def test_a_sweep_does_not_look_again_at_games_it_has_told_of(w, monkeypatch):
    _users, league, _fixture, entries = w
    now = timezone.now()
    seats = [(entries["erin"], ["black", "yellow"]), (entries["dave"], ["green", "red"])]
    old = [
        make_fixture(league, seats, "black", scheduled_at=now - timedelta(days=d))
        for d in (1, 2, 3)
    ]
    assert notifications.deadline_sweep(now)["game_overdue"] == 12  # 3 games × 4 people
    looked_at = []
    real = notifications.notify_event
    monkeypatch.setattr(
        notifications, "notify_event", lambda *a, **k: looked_at.append(a) or real(*a, **k)
    )
    assert notifications.deadline_sweep(now + timedelta(minutes=15))["game_overdue"] == 0
    assert looked_at == []  # the three told games are skipped without a recipient query
    newer = make_fixture(league, seats, "black", scheduled_at=now - timedelta(hours=2))
    assert notifications.deadline_sweep(now + timedelta(minutes=30))["game_overdue"] == 4
    assert [a[1] for a in looked_at] == [newer.pk]
    assert all(
        Notification.objects.filter(key__startswith=f"game_overdue:{f.pk}:").count() == 4
        for f in old
    )


def test_an_event_reads_every_recipients_switches_in_one_query(w):
    users, league, _fixture, entries = w
    seats = [(entries["erin"], ["black", "yellow"]), (entries["dave"], ["green", "red"])]
    when = timezone.now() - timedelta(hours=3)
    late = make_fixture(league, seats, "black", scheduled_at=when)
    notifications.preferences_set(users["dave"], {"game_overdue": (False, False)})
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        notifications.notify_event("game_overdue", late.pk, when.isoformat())
    prefs = [q for q in queries if "notificationpreference" in q["sql"]]
    assert len(prefs) == 1
    assert told("game_overdue") == {"erin": 1, "org": 1, "co": 1}  # dave switched it off


def test_running_an_event_again_sends_nothing(w):
    users, _, fixture, entries = w
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    first = notifications.notify_event("result_awaiting", pending.pk)
    again = notifications.notify_event("result_awaiting", pending.pk)
    assert (first["created"], first["emailed"]) == (1, 1)
    assert (again["created"], again["emailed"]) == (0, 0)
    assert len(mail.outbox) == 1


def test_a_kind_switched_off_is_not_sent(w, client):
    users, _, fixture, entries = w
    client.force_login(users["carol"])
    response = client.post(reverse("notifications_settings"), {"inbox-result_awaiting": "on"})
    assert response.status_code == 302
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    notifications.notify_event("result_awaiting", pending.pk)
    assert mail.outbox == []
    assert told("result_awaiting") == {"carol": 1}  # the inbox is still on
    page = client.get(reverse("tournaments:home")).text
    assert 'id="unread-count">1<' in page


def test_one_click_unsubscribe_from_the_email(w, client):
    users, _, fixture, entries = w
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    notifications.notify_event("result_awaiting", pending.pk)
    [message] = mail.outbox
    header = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert header in message.body
    path = header.removeprefix("http://localhost:8000")
    assert client.post(path).status_code == 200  # RFC 8058 one-click, no session, no CSRF
    assert notifications.switches(users["carol"], "result_awaiting") == (False, True)
    assert client.get(path[:-3] + "xyz/").status_code == 400


def test_the_inbox_lists_and_marks_read(w, client):
    users, _, fixture, entries = w
    pending = result_report(fixture=fixture, by=users["erin"], winner=entries["erin"])
    notifications.notify_event("result_awaiting", pending.pk)
    client.force_login(users["carol"])
    page = client.get(reverse("notifications"), HTTP_ACCEPT_LANGUAGE="de").text
    assert "G1 (" in page  # "… game G1 (erin – carol) …" (a bare "G1" may be in a CSRF token)
    client.post(reverse("notifications"))
    assert notifications.unread_count(users["carol"]) == 0
    client.force_login(users["stranger"])
    assert "G1 (" not in client.get(reverse("notifications")).text
    client.logout()
    assert client.get(reverse("notifications")).status_code == 302


@pytest.mark.django_db
def test_marking_read_with_only_bad_ids_marks_nothing(client):
    from notifications.models import Notification
    from tests.builders import make_user

    user = make_user("reader")
    for i in range(2):
        Notification.objects.create(
            user=user, kind="dispute_opened", key=f"k{i}", subject=f"n{i}", body="."
        )
    client.force_login(user)
    url = reverse("notifications")
    client.post(url, {"id": ["x", "²"]})
    assert Notification.objects.filter(user=user, read_at__isnull=True).count() == 2
    client.post(url, {})  # "mark all as read"
    assert Notification.objects.filter(user=user, read_at__isnull=True).count() == 0
