"""My games (/me/) below the header, stored per account and the stamp of its player
(tournaments/web/me.py): the next visit after each kind of change equals a fresh
rendering in English and German, each visit carries its own working CSRF tokens, one
account's page never reaches another, and the clock passing a deadline shows without a
write."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.builders import example_text, make_league
from tests.pages.test_stored_renderings import shows_the_truth, store, visit
from tournaments.models import Entry, League, Player
from tournaments.web.personal import csrf_placeholder

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]

URL = "/me/"
LOG = "valid-league-2tplus.json"


@pytest.fixture
def erin(client, league, erin_user):
    client.force_login(erin_user)
    return client


def test_a_second_visit_reads_the_stored_body(erin):
    first = visit(erin, URL)
    with CaptureQueriesContext(connection) as queries:
        assert visit(erin, URL) == first
    # the session from the cache; the account, its inbox count and the stamp in one
    # statement (tournaments/web/personal.py, ``stored_visit``)
    assert len(queries) == 1
    german = visit(erin, URL, "de")
    assert german != first and visit(erin, URL, "de") == german


def test_each_visit_has_working_csrf_tokens(league, erin_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(erin_user)
    client.get(URL)
    html = client.get(URL).content.decode()  # from the store
    assert csrf_placeholder() not in html
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert len(tokens) >= 3  # the online rooms, the calendar, the language switch
    response = client.post("/me/calendar/new/", {"csrfmiddlewaretoken": tokens[-2]})
    assert response.status_code == 302
    assert Player.objects.get(user=erin_user).calendar_version == 1


def test_an_account_never_gets_another_accounts_page(client, league, erin_user, carol_user):
    client.force_login(erin_user)
    erin = visit(client, URL)
    client.force_login(carol_user)
    carol = visit(client, URL)
    assert carol != erin and "Everything that needs carol" in carol


def test_a_result_sent_and_confirmed_shows(erin, league, carol_user, owner):
    from tournaments.services.results import game_log_submit, result_confirm

    before = store(erin, URL)
    result = game_log_submit(
        fixture=league.test_objects["g1"], content=example_text(LOG), by=carol_user
    )
    waiting = shows_the_truth(erin, URL)
    assert waiting != before and "Results awaiting your confirmation" in waiting
    result_confirm(result=result, by=owner)
    assert shows_the_truth(erin, URL) not in (before, waiting)


def test_a_new_date_an_opponent_renamed_and_a_rename_show(erin, league, owner):
    from tournaments.services.schedule import fixture_reschedule

    store(erin, URL)
    when = timezone.now().replace(microsecond=0) + timedelta(days=6)
    fixture_reschedule(fixture=league.test_objects["g2"], by=owner, scheduled_at=when)
    # the page's date is the site's time zone's (23:00-24:00 UTC is the next day in Berlin)
    assert f'datetime="{timezone.localtime(when):%Y-%m-%d}' in shows_the_truth(erin, URL)
    Player.objects.filter(slug="carol").update(name="Caroline")
    assert "Caroline" in shows_the_truth(erin, URL)
    Player.objects.filter(slug="erin").update(name="Erinna")
    assert "Everything that needs Erinna" in shows_the_truth(erin, URL)


def test_an_invitation_and_a_finished_league_show(erin, league, owner):
    before = store(erin, URL)
    autumn = make_league(owner, "autumn", name="Autumn Cup")
    Entry.objects.create(league=autumn, player=Player.objects.get(slug="erin"), state="invited")
    assert "Autumn Cup" in shows_the_truth(erin, URL)
    League.objects.filter(pk=league.pk).update(status=League.Status.FINISHED)
    assert "No game to play." in shows_the_truth(erin, URL) != before


def test_a_new_calendar_link_shows(erin, erin_user):
    from tournaments.services.players import calendar_link_rotate

    before = store(erin, URL)
    calendar_link_rotate(player=Player.objects.get(user=erin_user), by=erin_user)
    assert shows_the_truth(erin, URL) != before


def test_the_clock_passing_a_deadline_shows_without_a_write(erin, league, monkeypatch):
    g2 = league.test_objects["g2"]
    g2.deadline = timezone.now() + timedelta(hours=1)
    g2.save()
    html = store(erin, URL)
    assert "Next deadlines" in html and "Past their deadline" not in html
    later = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    monkeypatch.setattr("tournaments.web.personal.time.time", lambda: later.timestamp())
    assert "Past their deadline" in shows_the_truth(erin, URL)
