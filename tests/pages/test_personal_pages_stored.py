"""Signed-in pages stored per account and revision (tournaments/web/personal.py): My
leagues, a league's manage page and results desk, and My games' whole page. A second visit
is the stored page (the session, the user, the stamp, the inbox count: no more queries);
the next visit after each kind of change equals a fresh rendering in English and German;
each visit carries its own working CSRF tokens; one account's page never reaches another;
the header's inbox count and messages are the visit's; the desk's overdue list follows
the clock without a write."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.builders import example_text, make_league, make_user
from tests.pages.test_stored_renderings import fresh, shows_the_truth, store, visit
from tournaments.models import (
    Entry,
    Invitation,
    League,
    Player,
    PlayerClaim,
    RejectedSubmission,
    ResultLink,
)
from tournaments.web.personal import csrf_placeholder

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]

MY_LEAGUES = "/me/leagues/"
LOG = "valid-league-2tplus.json"


def manage_url(league) -> str:
    return f"/leagues/{league.slug}/manage/"


def desk_url(league) -> str:
    return f"/leagues/{league.slug}/desk/"


@pytest.fixture
def olga(client, league, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def erin(client, league, erin_user):
    client.force_login(erin_user)
    return client


def queries_of(client, url: str) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        html = visit(client, url)
    return html, len(queries)


@pytest.mark.parametrize("who,url", [("erin", MY_LEAGUES), ("olga", "manage"), ("olga", "desk")])
def test_a_second_visit_is_the_stored_page(request, league, who, url):
    client = request.getfixturevalue(who)
    url = {"manage": manage_url(league), "desk": desk_url(league)}.get(url, url)
    first, _ = queries_of(client, url)
    again, n = queries_of(client, url)
    assert again == first
    # the session from the cache (config/sessions.py); the account, (the organizer's
    # rights,) the stamp and the inbox count in one statement (``stored_visit``)
    assert n == 1
    german = visit(client, url, "de")
    assert german != first and visit(client, url, "de") == german
    assert visit(client, url) == first  # the languages are stored apart


def test_each_stored_visit_has_its_own_working_csrf_token(league, owner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    client.get(manage_url(league))
    html = client.get(manage_url(league)).content.decode()  # from the store
    assert csrf_placeholder() not in html
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert len(tokens) >= 3
    response = client.post(
        f"/leagues/{league.slug}/manage/finish/", {"csrfmiddlewaretoken": tokens[0]}
    )
    assert response.status_code != 403


def test_an_account_never_gets_another_accounts_page(league, owner, erin_user, carol_user):
    co = make_user("cora")
    league.organizers.add(co)
    pages = {}
    for user in (owner, co):
        client = Client()
        client.force_login(user)
        pages[user.username] = [visit(client, manage_url(league)), visit(client, MY_LEAGUES)]
        pages[user.username].append(visit(client, desk_url(league)))
    assert all(a != b for a, b in zip(pages["olga"], pages["cora"], strict=True))
    assert (
        "Signed in as cora" in pages["cora"][0]
        and "olga" not in pages["cora"][2].split("</header>")[0]
    )
    for user in (erin_user, carol_user):
        client = Client()
        client.force_login(user)
        mine = visit(client, MY_LEAGUES)
        assert mine == fresh(client, MY_LEAGUES)


def test_the_inbox_count_and_messages_are_the_visits_own(olga, owner, league):
    from notifications.models import Notification

    before = store(olga, manage_url(league))
    Notification.objects.create(
        user=owner, kind="game_overdue", key="k1", subject="s", in_inbox=True
    )
    counted = visit(olga, manage_url(league))
    assert counted != before and 'id="unread-count">1<' in counted
    assert counted == fresh(olga, manage_url(league))
    make_user("ozzy")
    response = olga.post(f"/leagues/{league.slug}/manage/organizers/", {"username": "ozzy"})
    assert response.status_code == 302
    shown = visit(olga, manage_url(league))  # the message once, then the stored page
    assert 'class="messages"' in shown and "ozzy" in shown
    after = visit(olga, manage_url(league))
    assert 'class="messages"' not in after and after == fresh(olga, manage_url(league))


def test_manage_shows_entries_invitations_claims_links_and_organizers(
    olga, league, owner, monkeypatch
):
    import time

    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)  # an invitation link holds its signing time
    url = manage_url(league)
    before = store(olga, url)
    Invitation.objects.create(league=league, email="new@example.org", created_by=owner)
    invited = shows_the_truth(olga, url)
    assert invited != before and "new@example.org" in invited
    loose = Player.objects.create(name="Lou", slug="lou", created_by=owner)
    Entry.objects.create(league=league, player=loose, state=Entry.State.ACCEPTED)
    assert "Lou" in shows_the_truth(olga, url)
    claimant = make_user("lou-account")
    PlayerClaim.objects.create(player=loose, user=claimant)
    assert "lou-account" in shows_the_truth(olga, url)
    entry = Entry.objects.get(player=loose)
    ResultLink.objects.create(entry=entry, nonce="n" * 20, token_hash="h" * 64, created_by=owner)
    linked = shows_the_truth(olga, url)
    ResultLink.objects.filter(entry=entry).update(revoked_at=timezone.now())
    assert shows_the_truth(olga, url) != linked
    league.organizers.add(make_user("ozzy"))
    assert "ozzy" in shows_the_truth(olga, url)
    League.objects.filter(pk=league.pk).update(name="Summer League")
    assert "Summer League" in shows_the_truth(olga, url)


def test_my_leagues_shows_entries_claims_addresses_and_organized_leagues(erin, league, owner):
    from tournaments.models import ConfirmedEmail

    erin_user = Player.objects.get(slug="erin").user
    before = store(erin, MY_LEAGUES)
    autumn = make_league(owner, "autumn", name="Autumn Cup")
    Entry.objects.create(league=autumn, player=Player.objects.get(slug="erin"), state="invited")
    invited = shows_the_truth(erin, MY_LEAGUES)
    assert invited != before and "Autumn Cup" in invited
    Entry.objects.filter(league=autumn).update(state=Entry.State.ACCEPTED)
    assert shows_the_truth(erin, MY_LEAGUES) != invited
    League.objects.filter(pk=autumn.pk).update(name="Autumn Open")
    assert "Autumn Open" in shows_the_truth(erin, MY_LEAGUES)
    organized = make_league(erin_user, "erins-own", name="Erin's Own")
    assert "Erin&#x27;s Own" in shows_the_truth(erin, MY_LEAGUES)
    organized.organizers.add(owner)
    shows_the_truth(erin, MY_LEAGUES)
    ConfirmedEmail.objects.create(user=erin_user, email=erin_user.email)
    shows_the_truth(erin, MY_LEAGUES)
    erin_user.email = "erin-new@example.org"
    erin_user.save()
    shows_the_truth(erin, MY_LEAGUES)


def test_my_leagues_shows_a_claim(client, league, owner):
    loose = Player.objects.create(name="Lou", slug="lou", created_by=owner)
    account = make_user("lou-account")
    client.force_login(account)
    before = store(client, MY_LEAGUES)
    claim = PlayerClaim.objects.create(player=loose, user=account)
    claimed = shows_the_truth(client, MY_LEAGUES)
    assert claimed != before and "Lou" in claimed
    PlayerClaim.objects.filter(pk=claim.pk).update(state=PlayerClaim.State.REFUSED)
    assert shows_the_truth(client, MY_LEAGUES) != claimed
    Player.objects.filter(pk=loose.pk).update(name="Louis")
    assert "Louis" in shows_the_truth(client, MY_LEAGUES)


def test_the_desk_shows_results_disputes_and_rejections(olga, league, carol_user, owner):
    from tournaments.services.results import game_log_submit, result_dispute

    url = desk_url(league)
    before = store(olga, url)
    result = game_log_submit(
        fixture=league.test_objects["g1"], content=example_text(LOG), by=carol_user
    )
    waiting = shows_the_truth(olga, url)
    assert waiting != before
    erin_user = Player.objects.get(slug="erin").user
    result_dispute(result=result, by=erin_user, reason="not our game")
    assert "not our game" in shows_the_truth(olga, url)
    RejectedSubmission.objects.create(
        fixture=league.test_objects["g2"], submitted_by=carol_user, error="bad log"
    )
    shows_the_truth(olga, url)
    carol_user.username = "caroline"
    carol_user.save()
    assert "caroline" in shows_the_truth(olga, url)


def test_the_desk_follows_the_clock_passing_a_deadline(olga, league, monkeypatch):
    g2 = league.test_objects["g2"]
    g2.deadline = timezone.now() + timedelta(hours=1)
    g2.save()
    url = desk_url(league)
    html = store(olga, url)
    later = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    monkeypatch.setattr("tournaments.web.personal.time.time", lambda: later.timestamp())
    assert shows_the_truth(olga, url) != html


def test_an_invitation_link_is_signed_for_each_visit(olga, league, owner):
    from django.core import signing

    from tournaments.services.entries import INVITATION_SALT, invitation_from_token

    invitation = Invitation.objects.create(league=league, email="new@example.org", created_by=owner)
    visit(olga, manage_url(league))
    html = visit(olga, manage_url(league))  # from the store
    assert csrf_placeholder() not in html
    token = re.search(r"/invitations/([^/\"]+)/", html).group(1)
    assert signing.loads(token, salt=INVITATION_SALT) == {"i": invitation.pk}
    assert invitation_from_token(token) == invitation
