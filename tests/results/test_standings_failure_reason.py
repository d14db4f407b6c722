"""Issue 22: the public standings page says in plain words that the table is stale; the
failed recompute's raw error is for the league's organizers only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.results.test_standings_failure import corrupt, league_with_a_result
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_visitors_get_the_plain_reason_and_organizers_the_detail():
    league = league_with_a_result("broken")
    corrupt(league)
    assert standings_recompute(league.pk)["status"] == "failed"
    url = reverse("tournaments:standings", args=[league.slug])
    public = Client().get(url).content.decode()
    assert "This table is out of date." in public
    assert "not-an-entry" not in public and "ValueError" not in public
    organizer = Client()
    organizer.force_login(league.owner)
    page = organizer.get(url).content.decode()
    assert "not-an-entry" in page and "For the organizers" in page
    # the fragment the page polls is the public one for everyone
    fragment = organizer.get(reverse("tournaments:standings-fragment", args=[league.slug]))
    assert "not-an-entry" not in fragment.content.decode()
