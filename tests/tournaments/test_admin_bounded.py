"""Admin changelists that cost the same on a site of any size (core/admin_lists.py): the
pager's count stops at its cap (shown as "1000+"), the whole table is not counted a second
time, the list is newest first, and a league filter lists the newest leagues and the one
chosen, not every league."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import admin_lists
from tests.builders import make_league, make_player, make_user
from tournaments import admin as tournaments_admin
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    client.force_login(make_user("root", staff=True, is_superuser=True))
    return client


def test_the_count_stops_at_its_cap_and_the_table_is_counted_once(staff, monkeypatch):
    monkeypatch.setattr(admin_lists, "COUNT_CAP", 3)
    owner = make_user("own")
    league = make_league(owner, "capped")
    players = [make_player(f"P{i}") for i in range(5)]
    for player in players:
        Entry.objects.create(league=league, player=player)
    with CaptureQueriesContext(connection) as queries:
        page = staff.get("/admin/tournaments/player/").content.decode()
    assert "3+ players" in page
    counts = [q["sql"] for q in queries if "COUNT(" in q["sql"].upper()]
    assert len(counts) == 1 and "LIMIT 4" in counts[0]
    # newest first
    assert page.index(">P4<") < page.index(">P0<")
    few = staff.get("/admin/tournaments/player/?q=P1").content.decode()
    assert "1 player" in few and "+" not in few.split("1 player")[0][-3:]


def test_the_league_filter_lists_the_newest_leagues_and_the_chosen_one(staff, monkeypatch):
    monkeypatch.setattr(tournaments_admin, "FILTER_LEAGUES", 2)
    owner = make_user("own")
    first, _second, third = (make_league(owner, slug) for slug in ("first", "second", "third"))
    page = staff.get("/admin/tournaments/entry/").content.decode()
    assert "Third" in page and "Second" in page and f"league__id__exact={first.pk}" not in page
    Entry.objects.create(league=first, player=make_player("Ann"))
    Entry.objects.create(league=third, player=make_player("Bob"))
    chosen = staff.get(f"/admin/tournaments/entry/?league__id__exact={first.pk}")
    html = chosen.content.decode()
    assert f"league__id__exact={first.pk}" in html and "Ann" in html and ">Bob<" not in html
