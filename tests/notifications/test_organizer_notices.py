"""Notices around entries, as the people involved see them: an account holder entered in a
league hears of it (mail and inbox) and the inbox item stops being new once they answer;
organizers hear of join requests and claims, players of the decisions; mails are written
in the recipient's language (set by the site's language switch or on the settings page)
and link to the configured site address; an organizer's own upload is not called "an
organizer decided"."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import AccountSettings
from notifications.models import Notification
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, Player
from tournaments.services.entries import (
    claim_create,
    claim_decide,
    entry_accept,
    join_decide,
    join_request,
)
from tournaments.services.leagues import entry_add
from tournaments.services.players import player_create
from tournaments.services.results import result_confirm, result_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(db):
    return make_user("olga")


def mails_to(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


def test_an_entered_account_holder_is_invited_by_mail_and_inbox(
    org, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://maedn.example"
    league = make_league(org, "spring", status="draft")
    anna = make_user("anna")
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_add(league=league, player=make_player("Anna", anna), by=org)
    (note,) = Notification.objects.filter(user=anna, kind="entry_invited")
    assert note.read_at is None and league.name in note.subject
    (message,) = mails_to(anna.email)
    assert "https://maedn.example" + reverse("tournaments:my-leagues") in message.body
    assert "localhost" not in message.body  # the unsubscribe link too
    # accepting is the action the notice asked for: the inbox item is no longer new
    with django_capture_on_commit_callbacks(execute=True):
        entry_accept(entry=entry, by=anna)
    note.refresh_from_db()
    assert note.read_at is not None


def test_join_requests_reach_the_organizers_and_the_decision_the_player(
    org, django_capture_on_commit_callbacks
):
    league = make_league(org, "open-cup", status="draft", registration_open=True)
    co = make_user("cora")
    league.organizers.add(co)
    ben = make_user("ben")
    make_player("Ben", ben)
    with django_capture_on_commit_callbacks(execute=True):
        entry = join_request(league=league, by=ben)
    asked = Notification.objects.filter(kind="join_requested")
    assert sorted(n.user.username for n in asked) == ["cora", "olga"]
    assert mails_to(org.email) and mails_to(co.email)
    with django_capture_on_commit_callbacks(execute=True):
        join_decide(entry=entry, by=org, approve=True)
    assert all(n.read_at is not None for n in asked.all())  # decided: no longer new
    (told,) = Notification.objects.filter(kind="join_decided", user=ben)
    assert "You play in" in told.subject
    # a refusal is told too (the entry is gone by then)
    cleo = make_user("cleo")
    make_player("Cleo", cleo)
    with django_capture_on_commit_callbacks(execute=True):
        request = join_request(league=league, by=cleo)
        join_decide(entry=request, by=org, approve=False)
    (refused,) = Notification.objects.filter(kind="join_decided", user=cleo)
    assert "refused" in refused.subject
    assert not Entry.objects.filter(player__user=cleo).exists()


def test_a_claim_reaches_who_may_vouch_and_its_decision_the_claimer(
    org, django_capture_on_commit_callbacks
):
    league = make_league(org, "club", status="draft")
    dan = player_create(name="Dan", created_by=org)
    entry_add(league=league, player=dan, by=org)
    other_org = make_user("otto")  # organizes nothing of Dan's
    account = make_user("dan-account")
    with django_capture_on_commit_callbacks(execute=True):
        claim = claim_create(player=dan, by=account)
    told = Notification.objects.filter(kind="claim_opened")
    assert [n.user for n in told] == [org] and other_org not in [n.user for n in told]
    assert reverse("tournaments:manage", args=[league.slug]) in told[0].url
    with django_capture_on_commit_callbacks(execute=True):
        claim_decide(claim=claim, by=org, approve=True)
    assert Notification.objects.get(kind="claim_opened").read_at is not None
    (decided,) = Notification.objects.filter(kind="claim_decided", user=account)
    assert decided.subject == "You are Dan now"
    assert Player.objects.get(pk=dan.pk).user == account


def test_mails_come_in_the_language_the_account_chose(org, django_capture_on_commit_callbacks):
    league = make_league(org, "herbst", status="draft")
    anna, ben = make_user("anna"), make_user("ben")
    # Anna switches the site to German while logged in: her account keeps it
    client = Client()
    client.force_login(anna)
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert AccountSettings.objects.get(user=anna).language == "de"
    with django_capture_on_commit_callbacks(execute=True):
        entry_add(league=league, player=make_player("Anna", anna), by=org)
        entry_add(league=league, player=make_player("Ben", ben), by=org)
    (german,) = mails_to(anna.email)
    (english,) = mails_to(ben.email)
    assert "eingeladen" in german.subject.lower() and "invited" in english.subject.lower()
    # and it can be changed back on the settings page
    response = client.post(reverse("notifications_settings"), {"language": "en"})
    assert response.status_code == 302
    assert AccountSettings.objects.get(user=anna).language == "en"


def test_an_organizers_own_upload_is_not_called_a_decision(org, django_capture_on_commit_callbacks):
    league = make_league(org, "desk")
    erin, carol = make_user("erin"), make_user("carol")
    e1 = Entry.objects.create(league=league, player=make_player("Erin", erin))
    e2 = Entry.objects.create(league=league, player=make_player("Carol", carol))
    fixture = make_fixture(league, [(e1, ["black", "yellow"]), (e2, ["green", "red"])], "black")
    with django_capture_on_commit_callbacks(execute=True):
        pending = result_report(fixture=fixture, by=erin, winner=e1)
    awaiting = Notification.objects.get(kind="result_awaiting", user=carol)
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(result=pending, by=carol)
    awaiting.refresh_from_db()
    assert awaiting.read_at is not None  # confirmed: the notice is dealt with


def test_a_daily_digest_holds_the_mails_and_sends_them_once_together(
    org, django_capture_on_commit_callbacks
):
    from notifications import services as notifications

    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    client.post(reverse("notifications_settings"), {"digest-form": "1", "daily_digest": "on"})
    assert notifications.digest_of(anna)
    with django_capture_on_commit_callbacks(execute=True):
        for slug in ("spring", "autumn"):
            league = make_league(org, slug, status="draft")
            entry_add(
                league=league,
                player=Player.objects.get_or_create(
                    name="Anna", defaults={"slug": "anna", "user": anna}
                )[0],
                by=org,
            )
    assert Notification.objects.filter(user=anna).count() == 2  # in the inbox at once
    assert not mails_to(anna.email)  # but no mail yet
    assert notifications.send_digests() == {"digests": 1}
    (digest,) = mails_to(anna.email)
    assert "(2)" in digest.subject and "Spring" in digest.body and "Autumn" in digest.body
    assert notifications.send_digests() == {"digests": 0}  # nothing twice
    assert len(mails_to(anna.email)) == 1
