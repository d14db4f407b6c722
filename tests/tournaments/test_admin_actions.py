"""The organizer workflow through the Django admin: its actions call the services."""

import pytest

from tests.builders import make_user
from tournaments.models import Cycle, League, Series
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create


@pytest.fixture
def staff_client(client, db):
    user = make_user("boss", staff=True)
    user.is_superuser = True
    user.save()
    client.force_login(user)
    return client, user


def action(client, name, league):
    return client.post(
        "/admin/tournaments/league/",
        {"action": name, "_selected_action": [league.pk]},
        follow=True,
    )


def test_generate_drr_and_playoffs_from_the_admin(staff_client):
    client, user = staff_client
    league = league_create(owner=user, name="Admin X", format="2T", playoffs={"kind": "xleague"})
    for name in ("Ann", "Ben", "Cat"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=user)
    response = action(client, "generate_next_drr", league)
    assert "DRR 1 scheduled" in response.content.decode()
    assert Cycle.objects.filter(league=league).count() == 1
    response = action(client, "generate_next_drr", league)
    assert "all have been generated" in response.content.decode()  # the service's message
    response = action(client, "generate_playoffs", league)
    assert "provisional" in response.content.decode()
    assert not Series.objects.filter(league=league).exists()
    assert League.objects.get(pk=league.pk).status == "running"
